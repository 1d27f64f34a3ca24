package dev.dlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockLostException;
import dev.dlock.resp.RespTransportFactory;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The meters of real clients on the dlock-resp transport against a real redis-server. */
final class DlockMetricsIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private final MeterRegistry registry = new SimpleMeterRegistry();

    private LockClient.Builder client(DlockMetrics metrics) {
        return LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new RespTransportFactory())
                // the watchdog renews every second: with 300 ms (every 100 ms) a host loaded by a two-module build
                // stalled a renewal past the lease and the hold of orders was lost before its release
                .leaseTime(Duration.ofSeconds(3))
                .listener(metrics);
    }

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    private double gauge(String... tags) {
        return registry.get(DlockMetrics.LEASES_ACTIVE).tags(tags).gauge().value();
    }

    private long acquires(String... tags) {
        return registry.get(DlockMetrics.ACQUIRE).tags(tags).timer().count();
    }

    /**
     * Waits until a meter reads {@code expected}: the client reports on its own threads, some events
     * (an acquire's outcome, a renewal, a loss) after the caller has seen them.
     */
    private static void await(String what, DoubleSupplier value, double expected) throws InterruptedException {
        long deadline = System.nanoTime() + Timing.scaled(Duration.ofSeconds(5)).toNanos();
        double seen;
        while ((seen = value.getAsDouble()) != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " is " + seen + ", not " + expected);
            }
            Thread.sleep(10);
        }
    }

    @Test
    void acquireBusyCancelReleaseLossAndClose_showInTheMeters() throws Exception {
        LockClient a = client(DlockMetrics.builder(registry)
                        .tag("client", "a")
                        .lockTag(10)
                        .build())
                .build();
        try (LockClient b = client(
                        DlockMetrics.builder(registry).tag("client", "b").build())
                .build()) {
            Lease orders = a.lock("orders").acquire();
            await("acquires of orders by a", () -> acquires("client", "a", "lock", "orders", "outcome", "acquired"), 1);
            await("holds of orders by a", () -> gauge("client", "a", "lock", "orders"), 1);

            assertThat(b.lock("orders").tryAcquire(Duration.ofMillis(200))).isEmpty();
            await("busy acquires of b", () -> acquires("client", "b", "outcome", "busy"), 1);
            assertThat(registry.get(DlockMetrics.ACQUIRE)
                            .tags("client", "b", "outcome", "busy")
                            .timer()
                            .totalTime(TimeUnit.MILLISECONDS))
                    .as("the busy acquire's wait")
                    .isGreaterThanOrEqualTo(150);

            CompletableFuture<Lease> waiting = b.lock("orders").acquireAsync(Duration.ofSeconds(30));
            waiting.cancel(true);
            await("cancelled acquires of b", () -> acquires("client", "b", "outcome", "cancelled"), 1);

            await(
                    "renewals of a",
                    () -> Math.min(1, counter(DlockMetrics.RENEWALS, "client", "a", "outcome", "ok")),
                    1);

            orders.release();
            await("holds of orders by a", () -> gauge("client", "a", "lock", "orders"), 0);
            assertThat(counter(DlockMetrics.LEASES_ENDED, "client", "a", "lock", "orders", "outcome", "released"))
                    .isEqualTo(1);

            Lease doomed = a.lock("doomed").acquire();
            redis.server().command("DEL", "dlock:{doomed}"); // an operator's force release
            doomed.whenLost().get(Timing.scaled(Duration.ofSeconds(5)).toMillis(), TimeUnit.MILLISECONDS);
            await(
                    "lost holds of doomed",
                    () -> counter(DlockMetrics.LEASES_ENDED, "client", "a", "lock", "doomed", "outcome", "lost"),
                    1);
            await("holds of doomed by a", () -> gauge("client", "a", "lock", "doomed"), 0);
            assertThatThrownBy(doomed::release).isInstanceOf(LockLostException.class);

            a.lock("open").acquire(); // still held when its client closes
            await("holds of open by a", () -> gauge("client", "a", "lock", "open"), 1);
        } finally {
            a.close();
        }

        await("holds of open by a", () -> gauge("client", "a", "lock", "open"), 0);
        assertThat(counter(DlockMetrics.LEASES_ENDED, "client", "a", "lock", "open", "outcome", "released"))
                .isEqualTo(1);
        assertThat(registry.find(DlockMetrics.LEASES_ACTIVE).gauges())
                .as("every hold of both clients ended")
                .allSatisfy(g -> assertThat(g.value()).isZero());
        assertThat(acquires("client", "a", "lock", "orders", "outcome", "acquired"))
                .as("one acquire of orders by a; b's were busy and cancelled")
                .isEqualTo(1);
        assertThat(registry.find(DlockMetrics.ACQUIRE).tags("client", "a").meters())
                .extracting(m -> m.getId().getTag("lock"))
                .containsOnly("orders", "doomed", "open");
    }

    @Test
    void unreachableRedis_failsAcquiresAndRenewals() throws Exception {
        // renewals every second, each failing 300 ms after it is sent: with a 900 ms lease a loaded host once delayed
        // the first renewal past the lease, the hold expired unrenewed and no renewal ever counted as failed
        try (LockClient client = client(new DlockMetrics(registry))
                .commandTimeout(Duration.ofMillis(300))
                .build()) {
            client.lock("held").acquire();
            redis.server().pause();
            try {
                assertThatThrownBy(() -> client.lock("other").tryAcquire(Duration.ZERO))
                        .isInstanceOf(LockConnectionException.class);
                await("failed acquires", () -> acquires("outcome", "failed"), 1);
                await(
                        "renewals that failed",
                        () -> Math.min(1, counter(DlockMetrics.RENEWALS, "outcome", "failed")),
                        1);
                await("lost holds", () -> counter(DlockMetrics.LEASES_ENDED, "outcome", "lost"), 1);
                await("holds", () -> gauge(), 0);
            } finally {
                redis.server().resume();
            }
        }
    }
}
