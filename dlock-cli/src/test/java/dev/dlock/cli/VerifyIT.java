package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code dlock verify}'s refusals from the packaged jar: a bad scenario name or no redis-server binary ends the run with
 * its exit code and a message that names the cause, before anything starts. The runs themselves go through this same
 * jar in dlock-tiers ({@code QuickTierIT} with its own servers, {@code ExternalRedisIT} against a user's Redis), which
 * run alone, as their checkers need; {@code VerifySimulateIT} runs {@code --simulate}.
 */
final class VerifyIT {

    /**
     * The redis-server the other tests use, which may be the testkit's embedded one: the jar itself looks only at
     * {@code $DLOCK_REDIS_SERVER} and {@code PATH}.
     */
    private static Map<String, String> redisServerBinary() {
        return Map.of("DLOCK_REDIS_SERVER", RedisServer.resolveBinary().toString());
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
