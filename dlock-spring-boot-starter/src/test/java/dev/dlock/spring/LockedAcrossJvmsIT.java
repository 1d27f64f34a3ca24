package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two Spring Boot applications in two JVMs, two threads each, call one {@code @Locked} method that
 * enters and leaves a counter in Redis: nobody is ever inside with another, every call runs, and the
 * fencing tokens the method sees strictly increase. The control run, with dlock off, shows that the
 * counter does see overlaps when nothing excludes them.
 */
final class LockedAcrossJvmsIT {
    private static final int THREADS = 2;
    private static final int CALLS = 40;

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @Test
    void twoApplicationsInTwoJvms_neverRunTheLockedMethodAtOnce() {
        RedisServer server = redis.server();
        run(server, "locked");
        assertThat(counter(server, CounterWorkerMain.RUNS)).isEqualTo(2L * THREADS * CALLS);
        assertThat(counter(server, CounterWorkerMain.OVERLAPS))
                .as("calls that found another inside")
                .isZero();
        assertThat(counter(server, CounterWorkerMain.STALE))
                .as("calls whose token was not above the last")
                .isZero();
        assertThat(counter(server, CounterWorkerMain.INSIDE)).isZero();
    }

    @Test
    void control_withoutTheLock_theCounterSeesOverlaps() {
        RedisServer server = redis.server();
        run(server, "unlocked");
        assertThat(counter(server, CounterWorkerMain.RUNS)).isEqualTo(2L * THREADS * CALLS);
        assertThat(counter(server, CounterWorkerMain.OVERLAPS)).isPositive();
    }

    private static void run(RedisServer server, String mode) {
        String[] args = {Integer.toString(server.port()), Integer.toString(THREADS), Integer.toString(CALLS), mode};
        try (JvmProcess a = JvmProcess.start(CounterWorkerMain.class, args);
                JvmProcess b = JvmProcess.start(CounterWorkerMain.class, args)) {
            Duration start = Timing.scaled(Duration.ofSeconds(90));
            a.awaitLine("READY", start);
            b.awaitLine("READY", start);
            a.send("GO");
            b.send("GO");
            Duration work = Timing.scaled(Duration.ofSeconds(150));
            assertThat(a.awaitLine("DONE", work)).as(a.stdout()).isEqualTo("DONE errors=0");
            assertThat(b.awaitLine("DONE", work)).as(b.stdout()).isEqualTo("DONE errors=0");
            assertThat(a.waitFor(Timing.scaled(Duration.ofSeconds(30))))
                    .as(a.stderr())
                    .isZero();
            assertThat(b.waitFor(Timing.scaled(Duration.ofSeconds(30))))
                    .as(b.stderr())
                    .isZero();
        }
    }

    private static long counter(RedisServer server, String key) {
        Object value = server.command("GET", key);
        return value == null ? 0 : Long.parseLong((String) value);
    }
}
