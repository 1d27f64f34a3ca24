package dev.dlock.bench;

import dev.dlock.testkit.JvmProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * W5, W8, W11, W12 and W14: separate client processes (one client, one thread each) contend for one key, or in W14 for
 * multi-locks over the names of a small pool ({@link MultiLockCheck}). The window is sent to all of them as monotonic
 * nanos, which the processes of one Linux host share; mutual exclusion is checked in a shared mapped file ({@link
 * SharedSlots}), so the check costs Redis nothing.
 */
final class ProcessesRun {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private ProcessesRun() {}

    static Measurement run(Workload workload, Peer peer, Deployment deployment, Settings settings, int run) {
        Measurement m = new Measurement(deployment.target().topology(), workload, peer);
        List<JvmProcess> processes = new ArrayList<>();
        Path dir = null;
        try {
            dir = Files.createTempDirectory("dlock-bench-w5-");
            Path slotsFile = dir.resolve("slots");
            SharedSlots slots = SharedSlots.open(slotsFile);
            int clients = workload.threads;
            for (int i = 1; i <= clients; i++) {
                processes.add(JvmProcess.builder(ContenderMain.class)
                        .jvmArgs(childJvmArgs(i))
                        .args(
                                peer.name(),
                                deployment.target().encode(),
                                Long.toString(settings.lease().toMillis()),
                                slotsFile.toString(),
                                Integer.toString(i),
                                dir.resolve("holds-" + i).toString(),
                                Long.toString(settings.processWarmupMillis()),
                                workload.name())
                        .start());
            }
            Window window = go(processes, settings, "bench-" + workload.name() + "-" + run);
            // The client processes' CPU and allocation are their own; only the server's figures are read here.
            Observation seen = Observation.watch(deployment, settings, window, peer);
            long violations = 0;
            int starved = 0;
            long acrossEnd = 0;
            for (JvmProcess p : processes) {
                String done = p.awaitLine("done", Duration.ofSeconds(90));
                violations += Long.parseLong(done.replaceAll(".*violations=(\\d+).*", "$1"));
                starved += Long.parseLong(done.replaceAll(".*acquisitions=(\\d+).*", "$1")) == 0 ? 1 : 0;
                acrossEnd = Math.max(acrossEnd, Long.parseLong(done.replaceAll(".*acrossEnd=(\\d+).*", "$1")));
                if (done.contains("error=") && m.failure == null) {
                    m.failure = done.substring(done.indexOf("error="));
                }
            }
            for (JvmProcess p : processes) {
                exitQuietly(p); // let each write its files and flush a profile, if one records, before close()
            }
            Holds holds = new Holds(Math.max(1, slots.sequence()));
            Histogram reads = Latency.histogram(); // W11, W12: readers' and writers' waits apart
            Histogram writes = Latency.histogram();
            Histogram unlock = Latency.histogram();
            long acquisitions = 0;
            for (int i = 1; i <= clients; i++) {
                for (String line : Files.readAllLines(dir.resolve("holds-" + i))) {
                    String[] f = line.split(" ");
                    holds.record(
                            Integer.parseInt(f[0]),
                            Long.parseLong(f[1]),
                            Long.parseLong(f[2]),
                            i,
                            Long.parseLong(f[3]));
                    if (window.contains(Long.parseLong(f[1]))) {
                        (f[4].equals("1") ? writes : reads).recordValue(Latency.clamp(Long.parseLong(f[3])));
                        unlock.recordValue(Latency.clamp(Long.parseLong(f[5])));
                    }
                    acquisitions++;
                }
            }
            Holds.Fairness fairness = holds.analyse(window, holds.capacity());
            Results.uncontended(m, acquisitions, window, fairness.waits(), unlock, seen.redis(), seen.origins());
            if (workload.readWrite()) {
                Results.readWrite(m, reads, writes, slots.readWriteCheck().peakReaders());
            } else if (workload.permits() == 1 && !workload.multiLock()) {
                Results.contended(m, fairness, fairness.waits());
            } else { // handoff and fairness follow one holder after another: a lock's, not a semaphore's or
                // multi-lock's
                Histogram waits = fairness.waits();
                m.put(Metric.LOCK_P99_OVER_MEAN, Latency.micros(waits, 99) / Latency.meanMicros(waits));
                if (workload.permits() > 1) {
                    m.put(Metric.PEAK_HOLDERS, slots.peak());
                }
            }
            m.put(Metric.STARVED, starved);
            m.put(Metric.WAIT_ACROSS_END, acrossEnd / 1e6);
            if (workload.readWrite() || workload.multiLock()) {
                Results.violations(m, violations);
            } else {
                m.put(Metric.VIOLATIONS, violations);
            }
        } catch (IOException e) {
            m.failure = new UncheckedIOException(e).toString();
        } catch (RuntimeException e) {
            m.failure = e.toString();
        } finally {
            processes.forEach(JvmProcess::close);
            if (dir != null) {
                deleteQuietly(dir);
            }
        }
        return m;
    }

    /**
     * Waits until every process printed {@code ready}, then sends each {@code go START END ARGS}: one window on the
     * monotonic clock, after the phase's warm-up, for all of them.
     *
     * @return the window sent
     */
    static Window go(List<JvmProcess> processes, Settings settings, String args) {
        for (JvmProcess p : processes) {
            p.awaitLine("ready", START_TIMEOUT);
        }
        Window window = Window.after(settings.warmupMillis(), settings.measureMillis());
        for (JvmProcess p : processes) {
            p.send("go " + window.start() + " " + window.end() + " " + args);
        }
        return window;
    }

    /**
     * JVM arguments for the client processes from the system property {@code dlock.bench.childJvmArgs} (split on
     * spaces, {@code {id}} replaced by the client's number), for profiling them, e.g. {@code
     * -XX:StartFlightRecording=filename=/tmp/w5-{id}.jfr}; none by default.
     */
    private static String[] childJvmArgs(int id) {
        String args = System.getProperty("dlock.bench.childJvmArgs", "").trim();
        return args.isEmpty()
                ? new String[0]
                : args.replace("{id}", Integer.toString(id)).split(" +");
    }

    private static void exitQuietly(JvmProcess process) {
        try {
            process.waitFor(Duration.ofSeconds(20));
        } catch (IllegalStateException stillAlive) {
            // close() kills it
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
