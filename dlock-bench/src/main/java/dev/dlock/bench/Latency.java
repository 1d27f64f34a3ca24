package dev.dlock.bench;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** Histograms of nanosecond latencies, reported in microseconds. */
final class Latency {
    private static final long MAX = TimeUnit.SECONDS.toNanos(120);

    private Latency() {}

    static Histogram histogram() {
        return new Histogram(MAX, 3);
    }

    /** Keeps a value inside the histogram's range: negatives become 0, anything past two minutes two minutes. */
    static long clamp(long nanos) {
        return Math.max(0, Math.min(MAX, nanos));
    }

    static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(percentile) / 1000.0;
    }

    static double meanMicros(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getMean() / 1000.0;
    }
}
