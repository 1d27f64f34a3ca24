package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;

/**
 * W6: one client takes many locks with a short lease and holds them while its watchdog (or renewal scheduler)
 * renews them; the server's commands and CPU are counted over a few renewal intervals. Whether the leases outlived
 * their TTL shows that the renewals worked.
 */
final class LeasesRun {
    private LeasesRun() {}

    static Measurement run(Peer peer, RedisServer server, Settings settings, int run) {
        Measurement m = new Measurement(Workload.W6, peer);
        int n = settings.manyLeases();
        try (Peer.Client client =
                peer.connect(Target.standalone(server.host(), server.port()), settings.manyLeasesLease(), true)) {
            List<Lock> held = new ArrayList<>(n);
            try {
                for (int i = 0; i < n; i++) {
                    Lock lock = client.lock("bench-W6-" + run + "-" + i);
                    lock.lock();
                    held.add(lock);
                }
                long keysHeld = (Long) server.command("DBSIZE");
                long interval = settings.intervalMillis();
                // The first interval after the last acquire: renewals of every lease are under way, and their
                // origin (client or script) is sampled over a whole interval.
                CommandOrigins origins = CommandOrigins.sample(
                        server.host(), server.port(), interval + interval / 5, Topology.STANDALONE, peer);
                RedisStats before = RedisStats.read(server);
                Thread.sleep(interval * settings.watchIntervals());
                RedisStats.Delta redis = RedisStats.read(server).since(before);
                long keysKept = (Long) server.command("DBSIZE");
                double intervals = settings.watchIntervals();
                m.put(Metric.LEASES, held.size());
                m.put(Metric.RENEWAL_CALLS_PER_100, redis.topLevel(origins) / intervals / (n / 100.0));
                m.put(Metric.TOTAL_PER_INTERVAL, redis.total() / intervals);
                m.put(Metric.REDIS_CPU_PER_INTERVAL, redis.cpuSeconds() * 1000 / intervals);
                m.put(Metric.LEASES_KEPT, 100.0 * Math.min(1.0, (double) keysKept / keysHeld));
            } finally {
                for (Lock lock : held) {
                    try {
                        lock.unlock();
                    } catch (RuntimeException lost) {
                        m.failure = "unlock after the watch: " + lost;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            m.failure = "interrupted";
        } catch (RuntimeException e) {
            m.failure = e.toString();
        }
        return m;
    }
}
