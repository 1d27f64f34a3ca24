package dev.dlock.resp;

import dev.dlock.DistributedLock;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Uncontended lock+unlock pairs per second and bytes allocated per pair (all threads counted) on one
 * thread, dlock on this transport next to the raw-Lettuce floor (SET NX PX plus a compare-and-delete
 * script) in the same run, against a fresh redis-server. A measurement, not a test: {@code mvn -q -pl
 * dlock-resp -am test-compile exec:java} from the root does not work with {@code -am}, so run {@code
 * java -cp "$(cat cp.txt):dlock-resp/target/classes:dlock-resp/target/test-classes" dev.dlock.resp.PairsPerSecond}
 * with the test class path from {@code dependency:build-classpath}. dlock on Lettuce is measured
 * beside both by dlock-bench (W1), where both transports are on the class path.
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

    private static void dlockRound(String what, DistributedLock lock) {
        long allocated = allocatedByAllThreads();
        long start = System.nanoTime();
        for (int i = 0; i < PAIRS; i++) {
            lock.lock();
            lock.unlock();
        }
        report(what, start, allocated);
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
                LockClient client = LockClient.builder()
                        .redisUri(server.uri())
                        .transport(new RespTransportFactory())
                        .build()) {
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
                dlockRound("dlock on resp lock+unlock", lock);
                floorRound(redis, sha);
            }
            raw.shutdown();
        }
    }
}
