package dev.dlock.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much of the machine other work took while the suite ran: all CPU time the kernel counted ({@code /proc/stat})
 * minus the suite's own (this JVM, its exited children — the W5 client processes and redis-benchmark — and its live
 * ones: the redis-server and a topology phase's servers and sentinels), as a share of the machine's CPU capacity. The
 * load average cannot tell: the suite's own threads raise it.
 */
final class MachineLoad {
    private static final double TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private final long[] statBefore;
    private final long ownBefore;

    private MachineLoad() {
        this.statBefore = stat();
        this.ownBefore = ownCpuNanos();
    }

    static MachineLoad start() {
        return new MachineLoad();
    }

    /** The share (0–1) of the machine's CPU capacity that other processes used since {@link #start}, or NaN. */
    double othersShare() {
        long[] now = stat();
        if (statBefore == null || now == null) {
            return Double.NaN;
        }
        double capacity = (now[0] - statBefore[0]) / TICKS_PER_SECOND;
        double busy = (now[1] - statBefore[1]) / TICKS_PER_SECOND;
        double own = (ownCpuNanos() - ownBefore) / 1e9;
        return capacity <= 0 ? Double.NaN : Math.max(0, busy - own) / capacity;
    }

    private static long ownCpuNanos() {
        long jvm = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return jvm + exitedChildrenCpuNanos() + liveDescendantsCpuNanos();
    }

    /** utime + stime of every running descendant (the redis-servers this suite started), or what could be read. */
    private static long liveDescendantsCpuNanos() {
        long sum = 0;
        for (ProcessHandle p : ProcessHandle.current().descendants().toList()) {
            try {
                String stat = Files.readString(Path.of("/proc/" + p.pid() + "/stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
                sum += (long) ((Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS_PER_SECOND * 1e9);
            } catch (IOException | RuntimeException gone) {
                // exited meanwhile: its time moves to cutime once reaped
            }
        }
        return sum;
    }

    /** cutime + cstime of this process: the CPU of every child that has exited and been reaped, or 0. */
    private static long exitedChildrenCpuNanos() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
            return (long) ((Long.parseLong(f[13]) + Long.parseLong(f[14])) / TICKS_PER_SECOND * 1e9);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** {total ticks, busy ticks} over all CPUs from the first line of {@code /proc/stat}, or null. */
    private static long[] stat() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split(" +");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle + iowait
            return new long[] {total, total - idle};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
