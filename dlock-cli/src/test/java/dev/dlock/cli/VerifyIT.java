package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code dlock verify} end to end from the packaged jar: the shipped path must find everything the torture run needs
 * (the testkit's redis-server launcher, the holder JVMs' classes, the Lua scripts, the negative controls' switch)
 * inside the one jar. The full set of scenarios runs in dlock-tiers' QuickTierIT; here each run takes a subset that
 * still goes through every part of the shipped path: holder JVMs killed and paused, server-side faults (OOM, ACL,
 * SCRIPT FLUSH) on its own servers, a control whose clients run with the library's switch on (beside a holder JVM), and
 * against a user's Redis
 * the proxy's faults and a server-fault scenario that must be skipped.
 */
final class VerifyIT {
    /** Only catches a hang: each subset takes about 30-40 s here. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(5);

    /** Stands in for the user's Redis of {@code --redis}. */
    private static RedisServer users;

    private static long usersPid;
    private static Cli withOwnServers;
    private static Cli againstUsersRedis;

    /**
     * Starts both runs at once: they mostly wait on lease timings (about 16 s and 9 s of CPU in 75 s and 45 s), so
     * together they take as long as the longer one, not the sum.
     */
    @BeforeAll
    static void startBothRuns() {
        users = RedisServer.builder().start();
        users.command("SET", "users-own-key", "kept");
        usersPid = users.pid();
        withOwnServers = Cli.start(
                redisServerBinary(),
                "verify",
                "--only",
                "holder-faults,server-errors,control-cross-lock-grant",
                "--out",
                "target/dlock-verify/cli-own-servers");
        againstUsersRedis = Cli.start(
                redisServerBinary(),
                "verify",
                "--redis",
                "redis://127.0.0.1:" + users.port(),
                "--only",
                "network,server-pause,control-release-without-owner-check",
                "--out",
                "target/dlock-verify/cli-users-redis");
    }

    @AfterAll
    static void stopEverything() {
        for (AutoCloseable started : new AutoCloseable[] {withOwnServers, againstUsersRedis, users}) {
            if (started != null) {
                try {
                    started.close();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
        }
    }

    /**
     * The redis-server the other tests use, which may be the testkit's embedded one: the jar itself looks only at
     * {@code $DLOCK_REDIS_SERVER} and {@code PATH}.
     */
    private static Map<String, String> redisServerBinary() {
        return Map.of("DLOCK_REDIS_SERVER", RedisServer.resolveBinary().toString());
    }

    @Test
    void verify_withItsOwnServers_passesWithEveryFaultInjectedAndEveryControlCaught() {
        Cli verify = withOwnServers;
        assertThat(verify.waitFor(RUN_TIMEOUT)).as(verify.toString()).isZero();
        assertThat(verify.stdout())
                .as(verify.toString())
                .contains("private redis-server")
                .contains("(0 skipped), 0 violations, controls caught 1/1")
                .contains("RESULT: PASS")
                .doesNotContain("control NOT CAUGHT", "skipped:");
    }

    @Test
    void verify_againstTheUsersRedis_passes_neverSignalsIt_andLeavesNoKeys() {
        Cli verify = againstUsersRedis;
        assertThat(verify.waitFor(RUN_TIMEOUT)).as(verify.toString()).isZero();
        assertThat(verify.stdout())
                .as(verify.toString())
                .contains("user's Redis (server faults skipped")
                .contains("skipped: needs server faults")
                .contains("(0 skipped), 0 violations, controls caught 1/1")
                .contains("RESULT: PASS")
                .doesNotContain("control NOT CAUGHT");
        assertThat(users.isRunning()).isTrue();
        assertThat(users.pid()).as("the same redis-server, never restarted").isEqualTo(usersPid);
        assertThat(users.command("KEYS", "*")).isEqualTo(List.of("users-own-key"));
    }

    @Test
    void verify_withAnUnknownScenario_exits64NamingIt_beforeStartingAnything() {
        try (Cli verify = Cli.start(redisServerBinary(), "verify", "--only", "holder-faults,no-such-scenario")) {
            assertThat(verify.waitFor(Duration.ofSeconds(60)))
                    .as(verify.toString())
                    .isEqualTo(64);
            assertThat(verify.stderr())
                    .contains("no scenario 'no-such-scenario'")
                    .contains("holder-faults");
        }
    }

    @Test
    void verify_withoutARedisServerBinary_exits69SayingWhereItLooked() {
        try (Cli verify = Cli.start(Map.of("DLOCK_REDIS_SERVER", "", "PATH", "/nonexistent"), "verify")) {
            assertThat(verify.waitFor(Duration.ofSeconds(60)))
                    .as(verify.toString())
                    .isEqualTo(69);
            assertThat(verify.stderr()).contains("No redis-server found", "PATH", "DLOCK_REDIS_SERVER");
        }
    }
}
