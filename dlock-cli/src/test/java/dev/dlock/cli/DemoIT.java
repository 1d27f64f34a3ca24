package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

final class DemoIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @Test
    void demo_passesItsVerdict_survivesTheKill_andLeavesNoKeys() {
        redis.server().command("SET", "users-own-key", "kept");
        Cli demo = Cli.start("demo", "--redis", redis.server().uri(), "--workers", "3", "--seconds", "6");
        assertThat(demo.waitFor(Duration.ofSeconds(120))).as(demo.toString()).isZero();
        assertThat(demo.stdout())
                .contains("Verdict: PASS", "SIGKILL worker #1", "took over", "no lost update")
                .contains("Deleted the demo's keys")
                .doesNotContain("throwaway");
        assertThat(redis.server().command("DBSIZE")).isEqualTo(1L);
        assertThat(redis.server().command("GET", "users-own-key")).isEqualTo("kept");
    }

    @Test
    void demo_whenNothingAnswers_startsAThrowawayRedis() {
        String uri = "redis://127.0.0.1:" + Cli.freePort();
        Cli demo = Cli.start("demo", "--redis", uri, "--workers", "2", "--seconds", "5");
        assertThat(demo.waitFor(Duration.ofSeconds(120))).as(demo.toString()).isZero();
        assertThat(demo.stdout()).contains("Nothing answers at " + uri, "throwaway redis-server", "Verdict: PASS");
    }

    @Test
    void demo_whenNothingAnswersAndThereIsNoRedisServer_exits69SayingSo() {
        String uri = "redis://127.0.0.1:" + Cli.freePort();
        try (Cli demo = Cli.start(Map.of("DLOCK_REDIS_SERVER", "", "PATH", "/nonexistent"), "demo", "--redis", uri)) {
            assertThat(demo.waitFor(Duration.ofSeconds(60))).as(demo.toString()).isEqualTo(69);
            assertThat(demo.stdout()).isEqualTo("Nothing answers at " + uri + ".\n");
            assertThat(demo.stderr())
                    .startsWith("dlock: cannot start a throwaway redis-server (No redis-server found: set"
                            + " DLOCK_REDIS_SERVER")
                    .endsWith("); install Redis or pass --redis URI\n");
        }
    }
}
