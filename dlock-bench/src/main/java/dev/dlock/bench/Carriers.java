package dev.dlock.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * What W15 watches besides throughput: the platform threads alive while the virtual threads wait (sampled), and the
 * JFR {@code jdk.VirtualThreadPinned} events of the run, read back with {@code jdk.jfr.consumer} and split into those
 * with a frame of dlock's code in their stack and the others. Compiled for Java 17 like the rest of the bench, so the
 * virtual threads are made through reflection ({@link #virtualThreads()}).
 */
final class Carriers {
    static final String PINNED = "jdk.VirtualThreadPinned";

    private Carriers() {}

    /**
     * A factory of virtual threads ({@code Thread.ofVirtual().name("w15-", 0).factory()}).
     *
     * @throws UnsupportedOperationException on a JDK before 21
     */
    static ThreadFactory virtualThreads() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            builder = ofVirtual.getMethod("name", String.class, long.class).invoke(builder, "w15-", 0L);
            return (ThreadFactory) Class.forName("java.lang.Thread$Builder")
                    .getMethod("factory")
                    .invoke(builder);
        } catch (ReflectiveOperationException e) {
            throw new UnsupportedOperationException(
                    "W15 needs virtual threads (JDK 21 or newer); this is JDK " + Runtime.version(), e);
        }
    }

    /** A factory of daemon platform threads: what W15's thread check must refuse. */
    static ThreadFactory platformThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "w15-platform-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Samples the number of live platform threads (virtual threads are not counted) until closed; keeps the peak. */
    static final class ThreadCount implements AutoCloseable {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final Thread sampler;
        private final int baseline;
        private volatile int peak;
        private volatile boolean stop;

        ThreadCount() {
            sampler = new Thread(this::sample, "w15-thread-count");
            sampler.setDaemon(true);
            sampler.start();
            baseline = threads.getThreadCount();
            peak = baseline;
        }

        private void sample() {
            while (!stop) {
                peak = Math.max(peak, threads.getThreadCount());
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** The most platform threads seen at once beyond those alive when counting began. */
        int added() {
            return Math.max(0, peak - baseline);
        }

        @Override
        public void close() {
            stop = true;
            sampler.interrupt();
            try {
                sampler.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            peak = Math.max(peak, threads.getThreadCount());
        }
    }

    /** The pinned events of one recording: how many had dlock's code on their stack, and where. */
    record Pinned(long inDlock, long elsewhere, Map<String, Long> dlockFrames) {}

    /** A JFR recording of every {@code jdk.VirtualThreadPinned} event (threshold 0), with stack traces. */
    static Recording startRecording() {
        Recording recording = new Recording();
        recording.enable(PINNED).withThreshold(Duration.ZERO).withStackTrace();
        recording.setToDisk(true);
        recording.start();
        return recording;
    }

    /** Stops {@code recording}, writes it to a temporary file, reads its pinned events back and deletes the file. */
    static Pinned stopAndRead(Recording recording) throws IOException {
        recording.stop();
        Path file = Files.createTempFile("dlock-w15-", ".jfr");
        try {
            recording.dump(file);
            long inDlock = 0;
            long elsewhere = 0;
            Map<String, Long> where = new LinkedHashMap<>();
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (!event.getEventType().getName().equals(PINNED)) {
                    continue;
                }
                List<String> frames = new ArrayList<>();
                if (event.getStackTrace() != null) {
                    for (RecordedFrame f : event.getStackTrace().getFrames()) {
                        frames.add(f.getMethod().getType().getName() + "."
                                + f.getMethod().getName());
                    }
                }
                String dlock = firstDlockFrame(frames);
                if (dlock == null) {
                    elsewhere++;
                } else {
                    inDlock++;
                    where.merge(dlock, 1L, Long::sum);
                }
            }
            return new Pinned(inDlock, elsewhere, where);
        } finally {
            recording.close();
            Files.deleteIfExists(file);
        }
    }

    /**
     * The innermost frame of dlock's library code ({@code dev.dlock.*} outside this benchmark) in a stack, innermost
     * frame first, or null when the stack has none.
     */
    static String firstDlockFrame(List<String> frames) {
        for (String frame : frames) {
            if (frame.startsWith("dev.dlock.") && !frame.startsWith("dev.dlock.bench.")) {
                return frame;
            }
        }
        return null;
    }
}
