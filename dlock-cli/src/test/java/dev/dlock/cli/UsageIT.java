package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Flags, durations, --help, --version and completion of the packaged jar; none of these talks to Redis. */
final class UsageIT {
    @Test
    void badDuration_exits64NamingTheFlag() {
        Cli ttl = Cli.run("run", "--name", "x", "--ttl", "5", "--", "true");
        assertThat(ttl.exitCode()).isEqualTo(64);
        assertThat(ttl.stderr()).contains("--ttl", "'5' is not a duration");

        Cli wait = Cli.run("run", "--name", "x", "--wait", "soon", "--", "true");
        assertThat(wait.exitCode()).isEqualTo(64);
        assertThat(wait.stderr()).contains("--wait", "forever");
    }

    @Test
    void unknownFlag_exits64NamingIt() {
        Cli status = Cli.run("status", "--bogus", "x");
        assertThat(status.exitCode()).isEqualTo(64);
        assertThat(status.stderr()).contains("--bogus");
    }

    @Test
    void missingRequiredFlags_exit64NamingThem() {
        Cli release = Cli.run("release", "x");
        assertThat(release.exitCode()).isEqualTo(64);
        assertThat(release.stderr()).contains("--force");

        Cli run = Cli.run("run", "--", "true");
        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("--name");
    }

    @Test
    void badRedisUri_exits64NamingTheFlag() {
        Cli status = Cli.run("status", "--redis", "http://example.invalid", "x");
        assertThat(status.exitCode()).isEqualTo(64);
        assertThat(status.stderr()).contains("--redis");
    }

    @Test
    void tooShortTtl_exits64NamingTheFlag() {
        Cli run = Cli.run(
                "run", "--redis", "redis://127.0.0.1:" + Cli.freePort(), "--name", "x", "--ttl", "10ms", "--", "true");
        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("--ttl");
    }

    @Test
    void versionAndHelp_exit0() {
        Cli version = Cli.run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.stdout()).startsWith("dlock ").doesNotContain("development build");

        for (String command : new String[] {"run", "status", "list", "release", "demo", "verify", "completion"}) {
            Cli help = Cli.run(command, "--help");
            assertThat(help.exitCode()).as(command).isZero();
            assertThat(help.stdout()).as(command).contains("Usage: dlock " + command, "--help", "--version");
        }
        Cli run = Cli.run("run", "--help");
        assertThat(run.stdout()).contains("--redis", "--ttl", "--wait", "--conflict-exit-code", "--kill-after");
    }

    @Test
    void completion_printsABashCompletionScriptForAllCommands() {
        Cli completion = Cli.run("completion");
        assertThat(completion.exitCode()).isZero();
        assertThat(completion.stdout())
                .contains("complete -F", "dlock")
                .contains("run", "status", "list", "release", "demo");
    }

    @Test
    void verify_badSeed_exits64_unreachableRedis_exits69() {
        Cli seed = Cli.run("verify", "--seed", "soon");
        assertThat(seed.exitCode()).isEqualTo(64);
        assertThat(seed.stderr()).contains("--seed");

        Cli down = Cli.run("verify", "--redis", "redis://127.0.0.1:" + Cli.freePort());
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(69);
        assertThat(down.stderr()).contains("127.0.0.1");
    }
}
