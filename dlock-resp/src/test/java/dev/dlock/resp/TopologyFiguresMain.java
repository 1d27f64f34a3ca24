package dev.dlock.resp;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import java.time.Duration;
import java.util.Arrays;

/**
 * Measures the figures of {@code docs/topologies-resp-notes.md} on real processes: how long after a
 * master's kill a client acquires again through the sentinels, and the acquire latency with and
 * without {@code replicaAcks(1)} on loopback. Not a test; run it by hand:
 *
 * <pre>{@code
 * java -cp <test class path> dev.dlock.resp.TopologyFiguresMain [failovers] [acquires]
 * }</pre>
 */
final class TopologyFiguresMain {
    private TopologyFiguresMain() {}

    public static void main(String[] args) throws Exception {
        int failovers = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int acquires = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        try (SentinelSetup setup = SentinelSetup.builder().replicas(1).start()) {
            for (int acks : new int[] {0, 1, 0, 1}) {
                System.out.printf(
                        "acquire median (replicaAcks=%d): %.1f us%n", acks, acquireMicros(setup, acks, acquires));
            }
        }
        double[] sentinel = new double[failovers];
        double[] client = new double[failovers];
        for (int i = 0; i < failovers; i++) {
            try (SentinelSetup setup = SentinelSetup.builder().replicas(1).start();
                    LockClient c = client(setup.uri(), 0, Duration.ofSeconds(1))) {
                c.lock("warm").acquire().release();
                RedisServer master = setup.initialMaster();
                long killed = System.nanoTime();
                master.kill();
                long[] promotedAt = new long[1];
                Thread watcher = new Thread(() -> {
                    setup.awaitFailover(Duration.ofSeconds(60));
                    promotedAt[0] = System.nanoTime();
                });
                watcher.start();
                for (int n = 0; ; n++) {
                    try {
                        c.lock("f" + n).acquire().release();
                        break;
                    } catch (RuntimeException e) {
                        Thread.sleep(10);
                    }
                }
                long acquired = System.nanoTime();
                watcher.join();
                sentinel[i] = (promotedAt[0] - killed) / 1e6;
                client[i] = (acquired - killed) / 1e6;
                System.out.printf(
                        "failover %d: sentinels done %.0f ms, client acquired %.0f ms after the kill%n",
                        i, sentinel[i], client[i]);
            }
        }
        System.out.printf(
                "median: sentinels %.0f ms, client %.0f ms after the kill%n", median(sentinel), median(client));
    }

    private static double acquireMicros(SentinelSetup setup, int acks, int n) {
        try (LockClient c = client(setup.uri(), acks, Duration.ofSeconds(2))) {
            for (int i = 0; i < n / 4; i++) {
                c.lock("w").acquire().release();
            }
            double[] micros = new double[n];
            for (int i = 0; i < n; i++) {
                long start = System.nanoTime();
                Lease lease = c.lock("m").acquire();
                micros[i] = (System.nanoTime() - start) / 1e3;
                lease.release();
            }
            return median(micros);
        }
    }

    private static LockClient client(String uri, int acks, Duration timeout) {
        LockClient.Builder b = LockClient.builder()
                .redisUri(uri)
                .transport(new RespTransportFactory())
                .keyPrefix("fig")
                .commandTimeout(timeout);
        if (acks > 0) {
            b.replicaAcks(acks);
        }
        return b.build();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
