package dev.dlock.example;

import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;

/**
 * Measures uncontended acquire+release pairs per second on one thread against a fresh
 * redis-server (never 6379). A measurement, not a test: run with
 * {@code mvn -q -pl dlock-lettuce test-compile exec:java -Dexec.mainClass=dev.dlock.example.PairsPerSecond}.
 */
public final class PairsPerSecond {
    private PairsPerSecond() {}

    private static long allocatedByAllThreads() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }

    /**
     * Entry point.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        try (RedisServer server = RedisServer.builder().start();
                LockClient client = LockClient.connect(server.uri())) {
            var lock = client.lock("bench");
            for (int i = 0; i < 20_000; i++) {
                lock.lock();
                lock.unlock();
            }
            int n = 50_000;
            long allocatedBefore = allocatedByAllThreads();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                lock.lock();
                lock.unlock();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long allocated = allocatedByAllThreads() - allocatedBefore;
            System.out.printf("dlock single-thread lock+unlock: %.0f pairs/s%n", n / seconds);
            System.out.printf("allocated per pair (all threads, incl. Lettuce's): %d bytes%n", allocated / n);
            System.out.println("port " + server.port());
        }
    }
}
