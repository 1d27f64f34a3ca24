package dev.dlock.internal.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.IndependentMasters;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Measures an uncontended Redlock acquire (one round to every node; the fencing write-back is not
 * needed when the nodes' counters agree) and its release on 3 and 5 local masters, for the figures in
 * docs/redlock.md; printed as {@code REDLOCK-LATENCY}. Asserts only that every acquire succeeded at
 * once and that the counters stayed in step (no write-back round), since timings depend on the host.
 */
final class RedlockLatencyIT {
    private static final int WARMUP = 100;
    private static final int RUNS = 400;

    @Test
    void acquireLatency_on3And5LocalMasters() {
        measure(3);
        measure(5);
    }

    private static void measure(int nodes) {
        try (IndependentMasters masters =
                        IndependentMasters.builder().masters(nodes).start();
                LockClient client = RedlockNodesSupport.builder(masters).build()) {
            long[] acquire = new long[RUNS];
            long[] release = new long[RUNS];
            for (int i = -WARMUP; i < RUNS; i++) {
                long start = System.nanoTime();
                Lease lease = client.lock("latency").tryAcquire(Duration.ZERO).orElseThrow();
                long acquired = System.nanoTime();
                lease.release();
                long released = System.nanoTime();
                if (i >= 0) {
                    acquire[i] = acquired - start;
                    release[i] = released - acquired;
                }
            }
            for (int i = 0; i < nodes; i++) {
                assertThat(RedlockNodesSupport.counterOn(masters.server(i), "latency"))
                        .isEqualTo(WARMUP + RUNS);
            }
            Arrays.sort(acquire);
            Arrays.sort(release);
            System.out.printf(
                    "REDLOCK-LATENCY nodes=%d acquire p10=%.2f median=%.2f p90=%.2f p99=%.2f ms;"
                            + " release median=%.2f p90=%.2f ms (%d runs)%n",
                    nodes,
                    ms(acquire, 0.10),
                    ms(acquire, 0.50),
                    ms(acquire, 0.90),
                    ms(acquire, 0.99),
                    ms(release, 0.50),
                    ms(release, 0.90),
                    RUNS);
        }
    }

    private static double ms(long[] sorted, double quantile) {
        return sorted[(int) Math.min(sorted.length - 1, Math.round(quantile * (sorted.length - 1)))] / 1e6;
    }
}
