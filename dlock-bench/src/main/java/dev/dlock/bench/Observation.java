package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.lang.management.ManagementFactory;

/**
 * What the server and this JVM did during one measured window: the origin of the commands (sampled with {@code
 * MONITOR} in the middle of the warm-up, so the window itself runs unobserved), the server's command and CPU deltas,
 * and this JVM's CPU time and allocation.
 *
 * @param origins which commands clients sent themselves
 * @param redis the server's deltas over the window
 * @param cpuNanos this JVM's process CPU time over the window
 * @param allocatedBytes bytes allocated by all live threads of this JVM over the window
 */
record Observation(CommandOrigins origins, RedisStats.Delta redis, long cpuNanos, long allocatedBytes) {

    /** Blocks from now until the window's end, sampling and snapshotting at the right moments. */
    static Observation watch(RedisServer server, Settings settings, Window window, Peer peer) {
        Window.sleepUntil(window.start() - (settings.warmupMillis() + settings.monitorMillis()) * 500_000L);
        CommandOrigins origins = CommandOrigins.sample(server.host(), server.port(), settings.monitorMillis(), peer);
        Window.sleepUntil(window.start());
        RedisStats before = RedisStats.read(server);
        long cpuBefore = processCpuNanos();
        long allocatedBefore = allocatedByAllThreads();
        Window.sleepUntil(window.end());
        long allocated = allocatedByAllThreads() - allocatedBefore;
        long cpu = processCpuNanos() - cpuBefore;
        return new Observation(origins, RedisStats.read(server).since(before), cpu, allocated);
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Bytes allocated by every live thread of this JVM, the client library's own threads included. */
    private static long allocatedByAllThreads() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }
}
