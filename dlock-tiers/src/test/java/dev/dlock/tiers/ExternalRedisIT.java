package dev.dlock.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * {@code dlock verify --redis URI} from the packaged jar: a testkit server stands in for the user's Redis.
 * Client-side faults run, server faults are skipped and reported as such, the server is never signalled, and the run
 * leaves no keys behind.
 */
@DisabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class ExternalRedisIT {

    @Test
    void externalRedis_runsClientFaults_skipsServerFaults_neverSignalsIt_leavesNoKeys() throws Exception {
        try (RedisServer users = RedisServer.builder().start()) {
            users.command("SET", "users-own-key", "kept");
            long pid = users.pid();
            TierRun run = TierRun.run(
                    7,
                    false,
                    Duration.ofMinutes(5),
                    List.of(
                            "--redis",
                            users.uri(),
                            "--seed",
                            "7",
                            "--lanes", // two lanes on the one server, each under a key prefix of its own
                            "2",
                            "--only",
                            "network,server-pause,many-names,server-errors,control-release-without-owner-check",
                            "--out",
                            "target/dlock-verify/external"));
            assertThat(run.report())
                    .contains("user's Redis (server faults skipped")
                    .contains("server-pause", "skipped: needs server faults")
                    .contains("server-errors")
                    .contains("RESULT: PASS")
                    .doesNotContain("control NOT CAUGHT");
            assertThat(run.totals().faults()).isEqualTo(4);
            assertThat(run.totals().violations()).isZero();
            assertThat(run.totals().controlsCaught()).isEqualTo(1);
            assertThat(run.exitCode()).isZero();
            assertThat(users.isRunning()).isTrue();
            assertThat(users.pid()).as("the same redis-server, never restarted").isEqualTo(pid);
            assertThat(users.command("KEYS", "*")).isEqualTo(List.of("users-own-key"));
        }
    }
}
