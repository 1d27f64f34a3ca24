package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * {@code --redis URI}: a testkit server stands in for the user's Redis. Client-side faults run, server faults are
 * skipped and reported as such, the server is never signalled, and the run leaves no keys behind.
 */
@DisabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class ExternalRedisIT {

    @Test
    void externalRedis_runsClientFaults_skipsServerFaults_leavesNoKeys() throws Exception {
        try (RedisServer users = RedisServer.builder().start()) {
            users.command("SET", "users-own-key", "kept");
            long pid = users.pid();
            List<Scenario> scenarios = Scenario.all().stream()
                    .filter(s -> s.name().equals("network")
                            || s.name().equals("server-pause")
                            || s.name().equals("many-names")
                            || s.name().equals("server-errors")
                            || s.name().equals("control-release-without-owner-check"))
                    .toList();
            Report report = Verify.run(
                    new Options(users.uri(), 7, false, Path.of("target", "dlock-verify", "external")),
                    scenarios,
                    2); // two lanes on the one server, each under a key prefix of its own
            System.out.print(report.text());
            assertThat(report.text())
                    .contains("user's Redis (server faults skipped")
                    .contains("server-pause", "skipped: needs server faults")
                    .contains("server-errors");
            assertThat(report.faults()).isEqualTo(4);
            assertThat(report.violations()).isZero();
            assertThat(report.controlsCaught()).isEqualTo(1);
            assertThat(users.pid()).isEqualTo(pid);
            assertThat(users.isRunning()).isTrue();
            assertThat(users.command("KEYS", "*")).isEqualTo(List.of("users-own-key"));
        }
    }
}
