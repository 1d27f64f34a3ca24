package dev.dlock.bench;

import java.util.List;

/** The eight workloads of the suite and what each reports. */
enum Workload {
    W1("W1: 1 thread, own key", 1, false, 0, false),
    W2("W2: 16 threads, own keys", 16, false, 0, false),
    W3("W3: 8 threads, one key, one client, 50 µs critical section", 8, true, 50_000, false),
    W4("W4: 64 threads, one key, one client", 64, true, 0, false),
    W5("W5: 8 client processes × 1 thread, one key", 8, true, 0, true),
    W6("W6: 10,000 leases held by one client, watchdog on", 1, false, 0, false),
    W7("W7: 8 threads, one semaphore of 3 permits, one client, 50 µs critical section", 8, true, 50_000, false),
    W8("W8: 8 client processes × 1 thread, one semaphore of 3 permits", 8, true, 0, true);

    final String title;
    final int threads;
    final boolean sharedKey;
    final long criticalNanos;
    final boolean separateProcesses;

    Workload(String title, int threads, boolean sharedKey, long criticalNanos, boolean separateProcesses) {
        this.title = title;
        this.threads = threads;
        this.sharedKey = sharedKey;
        this.criticalNanos = criticalNanos;
        this.separateProcesses = separateProcesses;
    }

    /** How many holders the key admits at once: a semaphore's permits in W7, 1 for the locks. */
    int permits() {
        return this == W7 || this == W8 ? SemaphorePeer.PERMITS : 1;
    }

    /** The peers measured in this workload: the floor only where it cannot be contended. */
    List<Peer> peers() {
        return switch (this) {
            case W1, W2 -> Peer.STANDALONE;
            case W6 -> List.of(Peer.DLOCK, Peer.REDISSON, Peer.SPRING_PUB_SUB);
            case W7, W8 -> List.of(Peer.DLOCK_SEMAPHORE, Peer.REDISSON_SEMAPHORE);
            default -> List.of(Peer.DLOCK, Peer.REDISSON, Peer.SPRING_PUB_SUB, Peer.SPRING_SPIN, Peer.NAIVE);
        };
    }

    /** The columns of this workload's table. */
    List<Metric> metrics() {
        return switch (this) {
            case W1 ->
                List.of(
                        Metric.PAIRS_PER_SECOND,
                        Metric.LOCK_P50,
                        Metric.LOCK_P99,
                        Metric.LOCK_P999,
                        Metric.UNLOCK_P50,
                        Metric.UNLOCK_P99,
                        Metric.UNLOCK_P999,
                        Metric.TOP_LEVEL_PER_ACQ,
                        Metric.TOTAL_PER_ACQ,
                        Metric.REDIS_CPU_PER_ACQ,
                        Metric.CLIENT_CPU_PER_ACQ,
                        Metric.ALLOC_PER_PAIR,
                        Metric.VIOLATIONS);
            case W2 ->
                List.of(
                        Metric.PAIRS_PER_SECOND,
                        Metric.LOCK_P50,
                        Metric.LOCK_P99,
                        Metric.UNLOCK_P99,
                        Metric.TOP_LEVEL_PER_ACQ,
                        Metric.TOTAL_PER_ACQ,
                        Metric.REDIS_CPU_PER_ACQ,
                        Metric.CLIENT_CPU_PER_ACQ,
                        Metric.ALLOC_PER_PAIR,
                        Metric.VIOLATIONS);
            case W3, W4, W5 ->
                List.of(
                        Metric.PAIRS_PER_SECOND,
                        Metric.LOCK_P50,
                        Metric.LOCK_P99,
                        Metric.LOCK_P999,
                        Metric.HANDOFF_P50,
                        Metric.HANDOFF_P99,
                        Metric.REACQUIRE_SHARE,
                        Metric.WAIT_P999_OVER_MEAN,
                        Metric.LOCK_P99_OVER_MEAN,
                        Metric.TOP_LEVEL_PER_ACQ,
                        Metric.SCRIPTS_PER_ACQ,
                        Metric.TOTAL_PER_ACQ,
                        Metric.REDIS_CPU_PER_ACQ,
                        Metric.STARVED,
                        Metric.WAIT_ACROSS_END,
                        Metric.VIOLATIONS);
            case W7 ->
                List.of(
                        Metric.PAIRS_PER_SECOND,
                        Metric.LOCK_P50,
                        Metric.LOCK_P99,
                        Metric.LOCK_P999,
                        Metric.LOCK_P99_OVER_MEAN,
                        Metric.UNLOCK_P50,
                        Metric.UNLOCK_P99,
                        Metric.TOP_LEVEL_PER_ACQ,
                        Metric.TOTAL_PER_ACQ,
                        Metric.REDIS_CPU_PER_ACQ,
                        Metric.PEAK_HOLDERS,
                        Metric.STARVED,
                        Metric.VIOLATIONS);
            case W8 ->
                List.of(
                        Metric.PAIRS_PER_SECOND,
                        Metric.LOCK_P50,
                        Metric.LOCK_P99,
                        Metric.LOCK_P999,
                        Metric.LOCK_P99_OVER_MEAN,
                        Metric.TOP_LEVEL_PER_ACQ,
                        Metric.TOTAL_PER_ACQ,
                        Metric.REDIS_CPU_PER_ACQ,
                        Metric.PEAK_HOLDERS,
                        Metric.STARVED,
                        Metric.VIOLATIONS);
            case W6 ->
                List.of(
                        Metric.LEASES,
                        Metric.RENEWAL_CALLS_PER_100,
                        Metric.TOTAL_PER_INTERVAL,
                        Metric.REDIS_CPU_PER_INTERVAL,
                        Metric.LEASES_KEPT);
        };
    }
}
