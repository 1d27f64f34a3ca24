package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.lang.management.ManagementFactory;

/**
 * What the server(s) and this JVM did during one measured window: the origin of the commands (sampled with {@code
 * MONITOR} in the middle of the warm-up, so the window itself runs unobserved), the command and CPU deltas of the
 * servers that take the writes (summed over a topology's masters), and this JVM's CPU time and allocation.
 *
 * @param origins which commands clients sent themselves
 * @param redis the server's deltas over the window
 * @param cpuNanos this JVM's process CPU time over the window
 * @param allocatedBytes bytes allocated by all live threads of this JVM over the window
 */
record Observation(CommandOrigins origins, RedisStats.Delta redis, long cpuNanos, long allocatedBytes) {

    /** Blocks from now until the window's end, sampling and snapshotting at the right moments. */
    static Observation watch(Deployment deployment, Settings settings, Window window, Peer peer) {
        Window.sleepUntil(window.start() - (settings.warmupMillis() + settings.monitorMillis()) * 500_000L);
        // On several masters the first one's sample stands for all: they run the same scripts for the same peer.
        RedisServer sampled = deployment.masters().get(0);
        CommandOrigins origins = CommandOrigins.sample(
                sampled.host(),
                sampled.port(),
                settings.monitorMillis(),
                deployment.target().topology(),
                peer);
        Window.sleepUntil(window.start());
        RedisStats before = RedisStats.read(deployment.masters());
        long cpuBefore = processCpuNanos();
        long allocatedBefore = allocatedByAllThreads();
        Window.sleepUntil(window.end());
        long allocated = allocatedByAllThreads() - allocatedBefore;
        long cpu = processCpuNanos() - cpuBefore;
        return new Observation(origins, RedisStats.read(deployment.masters()).since(before), cpu, allocated);
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
