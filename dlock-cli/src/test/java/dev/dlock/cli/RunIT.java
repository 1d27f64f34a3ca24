package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.Timing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

final class RunIT {
    @RegisterExtension
    static final LockServer redis = new LockServer();

    @TempDir
    Path dir;

    /** Starts a dlock once {@code condition} holds (within 30 s). */
    private static Cli startAfter(java.util.function.BooleanSupplier condition, String... args) throws Exception {
        Cli.await("the condition to start after", Duration.ofSeconds(30), condition);
        return Cli.start(args);
    }

    @Test
    void run_fourConcurrentOnOneName_childrenNeverOverlap() throws Exception {
        Path marker = dir.resolve("marker");
        Path log = dir.resolve("log");
        // mkdir is atomic: it fails if another child is inside. Each child stays 2 s, longer than the
        // JVMs' start-up spread, so without the lock the children would overlap.
        String child = "if mkdir \"$1\"; then sleep 2; rmdir \"$1\"; echo ok >> \"$2\";"
                + " else echo OVERLAP >> \"$2\"; exit 9; fi";
        List<Cli> runs = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                runs.add(Cli.start(
                        "run",
                        "--redis",
                        redis.uri(),
                        "--name",
                        "overlap",
                        "--wait",
                        "30s",
                        "--",
                        "sh",
                        "-c",
                        child,
                        "child",
                        marker.toString(),
                        log.toString()));
            }
            for (Cli run : runs) {
                assertThat(run.waitFor(Duration.ofSeconds(60)))
                        .as(run.toString())
                        .isZero();
            }
            assertThat(Files.readAllLines(log)).containsExactly("ok", "ok", "ok", "ok");
            assertThat(redis.held("overlap")).isFalse();
        } finally {
            runs.forEach(Cli::close);
        }
    }

    @Test
    void run_passesExitCodeAndEnvironment() throws Exception {
        Cli run = Cli.run(
                "run",
                "--redis",
                redis.uri(),
                "--name",
                "env",
                "--",
                "sh",
                "-c",
                "echo \"$DLOCK_NAME $DLOCK_FENCING_TOKEN\"; exit 7");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(7);
        String token = redis.fence("env");
        assertThat(run.stdout().trim()).isEqualTo("env " + token);
        assertThat(redis.held("env")).isFalse();
    }

    @Test
    void run_whenBusy_exits75AndPrintsHolder() throws Exception {
        try (Cli holder =
                Cli.start("run", "--redis", redis.uri(), "--name", "busy", "--ttl", "20s", "--", "sleep", "60")) {
            Cli.await("the holder to take the lock", Duration.ofSeconds(30), () -> redis.held("busy"));
            String owner = redis.owner("busy");

            Cli busy = Cli.run("run", "--redis", redis.uri(), "--name", "busy", "--", "true");
            assertThat(busy.exitCode()).as(busy.toString()).isEqualTo(75);
            assertThat(busy.stderr()).contains("busy", "held by " + owner, "remaining TTL");
            assertThat(holder.isAlive()).as("the holder is untouched").isTrue();

            Cli flockStyle = Cli.run("run", "--redis", redis.uri(), "--name", "busy", "--wait", "0", "--", "true");
            assertThat(flockStyle.exitCode()).as(flockStyle.toString()).isEqualTo(75);
            assertThat(flockStyle.stderr()).contains("busy after waiting 0ms");

            Cli custom = Cli.run(
                    "run",
                    "--redis",
                    redis.uri(),
                    "--name",
                    "busy",
                    "--wait",
                    "0.25",
                    "--conflict-exit-code",
                    "3",
                    "--",
                    "true");
            assertThat(custom.exitCode()).as(custom.toString()).isEqualTo(3);
        }
    }

    @Test
    void run_whenRedisDown_exits69NamingTheUriWithPasswordMasked() {
        String uri = "redis://:s3cret@127.0.0.1:" + Cli.freePort();
        Cli run = Cli.run("run", "--redis", uri, "--name", "down", "--", "true");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(69);
        assertThat(run.stderr()).contains(uri.replace("s3cret", "***")).doesNotContain("s3cret");
    }

    @Test
    void run_whenHolderIsSigkilled_waiterStartsItsChildWithinTtlPlus1s() throws Exception {
        Path started = dir.resolve("started");
        long ttlMillis = 2000;
        try (Cli holder = Cli.start(
                        "run", "--redis", redis.uri(), "--name", "crash", "--ttl", "2s", "--", "sleep", "60");
                Cli waiter = startAfter(
                        () -> redis.held("crash"), // started together, either could win
                        "run",
                        "--redis",
                        redis.uri(),
                        "--name",
                        "crash",
                        "--ttl",
                        "2s",
                        "--wait",
                        "forever",
                        "--",
                        "sh",
                        "-c",
                        "touch \"$1\"",
                        "child",
                        started.toString())) {
            Cli.await(
                    "the waiter to be queued for a hand-off", Duration.ofSeconds(30), () -> redis.queued("crash") > 0);
            assertThat(Files.exists(started)).isFalse();

            List<ProcessHandle> orphans = holder.sigkill();
            long killed = System.nanoTime();
            Cli.await("the waiter's child to start", Duration.ofSeconds(30), () -> Files.exists(started));
            long tookMillis = (System.nanoTime() - killed) / 1_000_000;
            orphans.forEach(ProcessHandle::destroyForcibly);

            assertThat(tookMillis)
                    .isLessThanOrEqualTo(
                            Timing.scaled(Duration.ofMillis(ttlMillis + 1000)).toMillis());
            assertThat(waiter.waitFor(Duration.ofSeconds(30)))
                    .as(waiter.toString())
                    .isZero();
        }
    }

    @Test
    void run_whenLeaseIsDeleted_childIsTerminatedAndDlockExits70() throws Exception {
        Path terminated = dir.resolve("terminated");
        String child = "trap 'echo term > \"$1\"; exit 143' TERM; while :; do sleep 0.1; done";
        try (Cli run = Cli.start(
                "run",
                "--redis",
                redis.uri(),
                "--name",
                "deleted",
                "--ttl",
                "1s",
                "--",
                "sh",
                "-c",
                child,
                "child",
                terminated.toString())) {
            redis.deleteOnceHeld("deleted");

            assertThat(run.waitFor(Duration.ofSeconds(30))).as(run.toString()).isEqualTo(70);
            assertThat(Cli.read(terminated).trim()).isEqualTo("term");
            // dlock-core's warning, which shows without --verbose, one line (CliLogging), says why; run's own lines
            // say what it does about it, and the reason is not repeated.
            Matcher lines = Pattern.compile("dlock: warning: dlock lost lock 'deleted' \\(fencing token \\d+\\): (.+)\n"
                            + "dlock: terminating the command \\(pid \\d+\\) as the lease on lock 'deleted' was lost:"
                            + " SIGTERM, SIGKILL after 10\\.0s\n"
                            + "dlock: the command exited with 143 after the lease on lock 'deleted' was lost; exiting"
                            + " 70\n")
                    .matcher(run.stderr());
            assertThat(lines.matches()).as(run.stderr()).isTrue();
            String reason = lines.group(1);
            assertThat(reason).isEqualTo("the renewal found the key gone or owned by another owner");
        }
    }

    @Test
    void run_whenLeaseIsLostAndChildIgnoresSigterm_childIsKilledAfterGrace() throws Exception {
        String child = "trap '' TERM; while :; do sleep 0.1; done";
        try (Cli run = Cli.start(
                "run",
                "--redis",
                redis.uri(),
                "--name",
                "stubborn",
                "--ttl",
                "1s",
                "--kill-after",
                "500ms",
                "--",
                "sh",
                "-c",
                child)) {
            redis.deleteOnceHeld("stubborn");

            assertThat(run.waitFor(Duration.ofSeconds(30))).as(run.toString()).isEqualTo(70);
            assertThat(run.stderr()).contains("SIGKILL");
        }
    }

    @Test
    void run_whenDlockGetsSigterm_childReceivesItAndLockIsReleased() throws Exception {
        Path ready = dir.resolve("ready");
        Path got = dir.resolve("got");
        String child = "trap 'echo TERM > \"$2\"; exit 0' TERM; touch \"$1\"; while :; do sleep 0.1; done";
        try (Cli run = Cli.start(
                Map.of(),
                "run",
                "--redis",
                redis.uri(),
                "--name",
                "signal",
                "--ttl",
                "30s",
                "--",
                "sh",
                "-c",
                child,
                "child",
                ready.toString(),
                got.toString())) {
            Cli.await("the child to start", Duration.ofSeconds(30), () -> Files.exists(ready));
            assertThat(redis.held("signal")).isTrue();

            run.sigterm();

            assertThat(run.waitFor(Duration.ofSeconds(30))).as(run.toString()).isZero(); // the child's exit code
            assertThat(Cli.read(got).trim()).isEqualTo("TERM");
            assertThat(redis.held("signal")).isFalse(); // released at once, not left to expire (TTL 30 s)
        }
    }

    @Test
    void run_whenCommandCannotStart_exits127AndReleases() {
        Cli run = Cli.run(
                "run",
                "--redis",
                redis.uri(),
                "--name",
                "missing",
                "--",
                dir.resolve("nope").toString());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(127);
        assertThat(run.stderr()).contains("cannot run");
        assertThat(redis.held("missing")).isFalse();
    }
}
