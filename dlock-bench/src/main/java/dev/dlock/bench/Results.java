package dev.dlock.bench;

import org.HdrHistogram.Histogram;

/** Turns what a run recorded into the metrics of its {@link Measurement}; shared by the in-process and W5 runs. */
final class Results {
    private Results() {}

    /** Throughput, lock and unlock latency, and what Redis did per acquisition. */
    static void uncontended(
            Measurement m,
            long pairs,
            Window window,
            Histogram lock,
            Histogram unlock,
            RedisStats.Delta redis,
            CommandOrigins origins) {
        m.put(Metric.PAIRS_PER_SECOND, pairs / window.seconds());
        m.put(Metric.LOCK_P50, Latency.micros(lock, 50));
        m.put(Metric.LOCK_P99, Latency.micros(lock, 99));
        m.put(Metric.LOCK_P999, Latency.micros(lock, 99.9));
        m.put(Metric.LOCK_MEAN, Latency.meanMicros(lock));
        if (unlock != null) {
            m.put(Metric.UNLOCK_P50, Latency.micros(unlock, 50));
            m.put(Metric.UNLOCK_P99, Latency.micros(unlock, 99));
            m.put(Metric.UNLOCK_P999, Latency.micros(unlock, 99.9));
        }
        double perPair = pairs == 0 ? Double.NaN : 1.0 / pairs;
        m.put(Metric.TOP_LEVEL_PER_ACQ, redis.topLevel(origins) * perPair);
        m.put(Metric.SCRIPTS_PER_ACQ, redis.scripts() * perPair);
        m.put(Metric.TOTAL_PER_ACQ, redis.total() * perPair);
        m.put(Metric.REDIS_CPU_PER_ACQ, redis.cpuSeconds() * 1e6 * perPair);
        m.clientCommandMix = redis.topLevelMix(origins, pairs);
    }

    /** Handoff latency and fairness of a contended key. */
    static void contended(Measurement m, Holds.Fairness fairness, Histogram lock) {
        m.put(Metric.HANDOFF_P50, Latency.micros(fairness.handoff(), 50));
        m.put(Metric.HANDOFF_P99, Latency.micros(fairness.handoff(), 99));
        m.put(Metric.REACQUIRE_SHARE, fairness.reacquireShare());
        double mean = Latency.meanMicros(lock);
        m.put(Metric.WAIT_P999_OVER_MEAN, Latency.micros(lock, 99.9) / mean);
        m.put(Metric.LOCK_P99_OVER_MEAN, Latency.micros(lock, 99) / mean);
    }

    /**
     * A read-write lock's waits, readers' and writers' apart, and the most readers inside at once; the writer's p99
     * over its mean is issue 16's tail goal (a writer under a stream of readers).
     */
    static void readWrite(Measurement m, Histogram reads, Histogram writes, int peakReaders) {
        m.put(Metric.READER_WAIT_P99, Latency.micros(reads, 99));
        double writerMean = Latency.meanMicros(writes);
        m.put(Metric.WRITER_WAIT_MEAN, writerMean);
        m.put(Metric.WRITER_WAIT_P99, Latency.micros(writes, 99));
        m.put(Metric.WRITER_P99_OVER_MEAN, Latency.micros(writes, 99) / writerMean);
        m.put(Metric.PEAK_READERS, peakReaders);
    }

    /** The exclusion violations seen; any at all fails the measurement, whichever the peer. */
    static void violations(Measurement m, long violations) {
        m.put(Metric.VIOLATIONS, violations);
        if (violations > 0 && m.failure == null) {
            m.failure = violations + " exclusion violations: holders that must exclude each other were inside at once";
        }
    }
}
