package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Flags, durations, --help, help, --version and completion of the packaged jar; none of these talks to Redis. */
final class UsageIT {
    @TempDir
    Path dir;

    @Test
    void badDuration_exits64NamingTheFlag() {
        Cli ttl = Cli.run("run", "--name", "x", "--ttl", "5d", "--", "true");
        assertThat(ttl.exitCode()).isEqualTo(64);
        assertThat(ttl.stderr()).contains("--ttl", "'5d' is not a duration", "seconds (0, 1.5)");

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
    void numberOutOfRange_exits64NamingTheFlagAndTheRange() {
        Cli run = Cli.run("run", "--name", "x", "--conflict-exit-code", "256", "--", "true");
        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.stderr()).contains("--conflict-exit-code", "0..255", "256");

        Cli demo = Cli.run("demo", "--workers", "1");
        assertThat(demo.exitCode()).isEqualTo(64);
        assertThat(demo.stderr()).contains("--workers", "2..16", "1");
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
        assertThat(run.stdout())
                .contains("--redis", "--ttl", "--wait", "--conflict-exit-code", "--kill-after")
                .contains("Durations: seconds (0, 1.5)");
    }

    @Test
    void completion_sourcedInBash_completesTheCommandsAndTheirFlags() throws Exception {
        Cli completion = Cli.run("completion");
        assertThat(completion.exitCode()).as(completion.toString()).isZero();
        Path script = dir.resolve("dlock-completion.bash");
        Files.writeString(script, completion.stdout());

        assertThat(complete(script, "dlock", ""))
                .containsExactlyInAnyOrder("run", "status", "list", "release", "demo", "verify", "completion", "help");
        assertThat(complete(script, "dlock", "run", "--k")).containsExactly("--kill-after");
        assertThat(complete(script, "dlock", "verify", "--"))
                .contains("--redis", "--seed", "--long", "--out")
                .doesNotContain("--ttl");
    }

    /** What bash offers for the last word after {@code source <(dlock completion)}, as on pressing Tab. */
    private static List<String> complete(Path script, String... words) throws Exception {
        String line = String.join(" ", words);
        String bash = "source \"$1\"; shift; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMP_LINE=\"$*\";"
                + " COMP_POINT=${#COMP_LINE}; _complete_dlock; printf '%s\\n' \"${COMPREPLY[@]}\"";
        List<String> command = new ArrayList<>(List.of("bash", "-c", bash, "bash", script.toString()));
        command.addAll(List.of(words));
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD) // compopt complains outside a real completion
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(line).isTrue();
        assertThat(process.exitValue()).as(line).isZero();
        return out.lines().filter(word -> !word.isEmpty()).toList();
    }

    @Test
    void help_printsTheUsageOfTheNamedCommand() {
        Cli help = Cli.run("help", "verify");
        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.stdout())
                .contains("Usage: dlock verify", "--redis", "--seed", "--long", "--out", "--transport");
    }

    @Test
    void verify_badSeedOrTransport_exits64_unreachableRedis_exits69() {
        Cli seed = Cli.run("verify", "--seed", "soon");
        assertThat(seed.exitCode()).isEqualTo(64);
        assertThat(seed.stderr()).contains("--seed");

        Cli transport = Cli.run("verify", "--transport", "jedis");
        assertThat(transport.exitCode()).as(transport.toString()).isEqualTo(64);
        assertThat(transport.stderr()).contains("--transport must be one of resp, lettuce, not 'jedis'");

        Cli down = Cli.run("verify", "--redis", "redis://127.0.0.1:" + Cli.freePort());
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(69);
        assertThat(down.stderr()).contains("127.0.0.1");
    }
}
