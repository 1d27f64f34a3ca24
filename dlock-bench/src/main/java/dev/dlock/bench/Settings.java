package dev.dlock.bench;

import java.time.Duration;

/**
 * How long each phase runs and how often the suite repeats. Every peer gets the same settings.
 *
 * @param runs how many times the whole suite runs (the tables show the median and the spread)
 * @param warmupMillis warm-up of each phase, not measured (the command origins are sampled in it)
 * @param measureMillis the measured window of each phase
 * @param lease the lease time of W1–W5 (watchdog lease, TTL, expireAfter)
 * @param manyLeases how many leases W6 holds
 * @param manyLeasesLease the lease time of W6, so that an interval (a third of it) is short
 * @param watchIntervals how many renewal intervals W6 watches
 * @param benchmarkRequests requests per redis-benchmark test
 * @param processWarmupMillis how long each W5 process warms up on a key of its own before the phase starts
 * @param w5WarmupMillis warm-up of the W5 phase itself (all processes contending, not measured): each process gets
 *     an eighth of the acquisitions, a few hundred per second, so a warm-up as short as the in-process phases' ends
 *     with every peer's waiting and wake-up path still interpreted; this one is long enough for the JIT to compile it
 */
record Settings(
        int runs,
        long warmupMillis,
        long measureMillis,
        Duration lease,
        int manyLeases,
        Duration manyLeasesLease,
        int watchIntervals,
        int benchmarkRequests,
        long processWarmupMillis,
        long w5WarmupMillis) {

    static Settings full() {
        return new Settings(
                3, 2000, 3000, Duration.ofSeconds(30), 10_000, Duration.ofSeconds(3), 3, 100_000, 4000, 12_000);
    }

    static Settings quick() {
        return new Settings(1, 700, 1000, Duration.ofSeconds(30), 10_000, Duration.ofSeconds(3), 2, 10_000, 300, 700);
    }

    /** A renewal interval of W6: a third of its lease, the period of every peer's watchdog. */
    long intervalMillis() {
        return manyLeasesLease.toMillis() / 3;
    }

    /** How long a warm-up samples the origin of commands with MONITOR. */
    long monitorMillis() {
        return Math.min(1000, warmupMillis / 2);
    }

    Settings withPhaseMillis(long warmup, long measure) {
        return with(runs, warmup, measure, processWarmupMillis, w5WarmupMillis);
    }

    Settings withProcessWarmupMillis(long millis) {
        return with(runs, warmupMillis, measureMillis, millis, w5WarmupMillis);
    }

    Settings withW5WarmupMillis(long millis) {
        return with(runs, warmupMillis, measureMillis, processWarmupMillis, millis);
    }

    /** The settings of the W5 phase: its own warm-up, the rest as for every phase. */
    Settings forW5() {
        return withPhaseMillis(w5WarmupMillis, measureMillis);
    }

    Settings withRuns(int count) {
        return with(count, warmupMillis, measureMillis, processWarmupMillis, w5WarmupMillis);
    }

    /** A copy with the timing components given and the workload components of this one. */
    private Settings with(int count, long warmup, long measure, long processWarmup, long w5Warmup) {
        return new Settings(
                count,
                warmup,
                measure,
                lease,
                manyLeases,
                manyLeasesLease,
                watchIntervals,
                benchmarkRequests,
                processWarmup,
                w5Warmup);
    }
}
