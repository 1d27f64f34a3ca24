package dev.dlock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Where and when the suite ran, for the report. */
record Environment(
        String date,
        int cpus,
        String cpuModel,
        String jdk,
        String redis,
        String loadBefore,
        String loadAfter,
        double othersShare,
        double minutes,
        Settings settings) {

    static Environment describe(
            String redisVersion, String loadBefore, String loadAfter, double othersShare, double minutes, Settings s) {
        return new Environment(
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                Runtime.getRuntime().availableProcessors(),
                readCpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                redisVersion,
                loadBefore,
                loadAfter,
                othersShare,
                minutes,
                s);
    }

    /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "unknown". */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // fall through
        }
        return System.getProperty("os.arch");
    }
}
