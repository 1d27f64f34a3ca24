package dev.dlock.example;

import dev.dlock.DistributedLock;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Measures uncontended acquire+release pairs per second on one thread against a fresh
 * redis-server (never 6379), next to the raw-Lettuce floor in the same run: {@code SET NX PX} plus
 * a compare-and-delete script, two round trips and no waiting logic. A measurement, not a test: run
 * with {@code mvn -q -pl dlock-lettuce test-compile exec:java -Dexec.mainClass=dev.dlock.example.PairsPerSecond}.
 * Allocation is summed over all threads, so Lettuce's I/O thread counts too.
 */
public final class PairsPerSecond {
    private static final int PAIRS = 50_000;
    private static final int ROUNDS = 3;

    private PairsPerSecond() {}

    private static long allocatedByAllThreads() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }

    private static void report(String what, long startNanos, long allocatedBefore) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long allocated = allocatedByAllThreads() - allocatedBefore;
        System.out.printf("%-34s %8.0f pairs/s %6d B/pair%n", what, PAIRS / seconds, allocated / PAIRS);
    }

    private static void dlockRound(DistributedLock lock) {
        long allocated = allocatedByAllThreads();
        long start = System.nanoTime();
        for (int i = 0; i < PAIRS; i++) {
            lock.lock();
            lock.unlock();
        }
        report("dlock lock+unlock", start, allocated);
    }

    private static void floorRound(RedisCommands<String, String> redis, String sha) {
        String[] keys = {"floor"};
        SetArgs nxpx = SetArgs.Builder.nx().px(30_000);
        long allocated = allocatedByAllThreads();
        long start = System.nanoTime();
        for (int i = 0; i < PAIRS; i++) {
            redis.set("floor", "owner", nxpx);
            redis.evalsha(sha, ScriptOutputType.INTEGER, keys, "owner");
        }
        report("raw Lettuce SET NX PX + evalsha", start, allocated);
    }

    /**
     * Entry point.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        try (RedisServer server = RedisServer.builder().start();
                LockClient client = LockClient.connect(server.uri())) {
            RedisClient raw = RedisClient.create(server.uri());
            RedisCommands<String, String> redis = raw.connect().sync();
            String sha = redis.scriptLoad(
                    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0");
            DistributedLock lock = client.lock("bench");
            for (int i = 0; i < 20_000; i++) { // warm-up of both
                lock.lock();
                lock.unlock();
                redis.set("floor", "owner", SetArgs.Builder.nx().px(30_000));
                redis.del("floor");
            }
            for (int round = 0; round < ROUNDS; round++) { // interleaved, so both see the same machine
                dlockRound(lock);
                floorRound(redis, sha);
            }
            raw.shutdown();
        }
    }
}
