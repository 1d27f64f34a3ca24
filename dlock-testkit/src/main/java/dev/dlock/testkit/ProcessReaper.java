package dev.dlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * JVM-wide safety net: a shutdown hook SIGKILLs every tracked child process and deletes tracked temp directories, so
 * nothing leaks when tests crash. Thread-safe.
 */
final class ProcessReaper {

    private static final Set<Process> PROCESSES = ConcurrentHashMap.newKeySet();
    private static final Set<Path> DIRECTORIES = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ProcessReaper::reapAll, "dlock-testkit-reaper"));
    }

    private ProcessReaper() {}

    static void track(Process process) {
        PROCESSES.add(process);
        process.onExit().thenRun(() -> PROCESSES.remove(process));
    }

    static void untrack(Process process) {
        PROCESSES.remove(process);
    }

    static void trackDirectory(Path directory) {
        DIRECTORIES.add(directory);
    }

    static void untrackDirectory(Path directory) {
        DIRECTORIES.remove(directory);
    }

    /** Deletes {@code directory} recursively, ignoring failures. */
    static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }

    private static void reapAll() {
        for (Process process : PROCESSES) {
            process.destroyForcibly();
        }
        for (Process process : PROCESSES) {
            try {
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (Path directory : DIRECTORIES) {
            deleteRecursively(directory);
        }
    }
}
