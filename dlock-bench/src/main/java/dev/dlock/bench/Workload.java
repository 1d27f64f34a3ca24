package dev.dlock.bench;

import java.util.List;

/** The fourteen workloads of the suite and what each reports. */
enum Workload {
    W1("W1: 1 thread, own key", 1, false, 0, false),
    W2("W2: 16 threads, own keys", 16, false, 0, false),
    W3("W3: 8 threads, one key, one client, 50 µs critical section", 8, true, 50_000, false),
    W4("W4: 64 threads, one key, one client", 64, true, 0, false),
    W5("W5: 8 client processes × 1 thread, one key", 8, true, 0, true),
    W6("W6: 10,000 leases held by one client, watchdog on", 1, false, 0, false),
    W7("W7: 8 threads, one semaphore of 3 permits, one client, 50 µs critical section", 8, true, 50_000, false),
    W8("W8: 8 client processes × 1 thread, one semaphore of 3 permits", 8, true, 0, true),
    W9(
            "W9: 8 threads, one read-write lock, 90% reads / 10% writes, one client, 50 µs critical section",
            8, true, 50_000, false),
    W10(
            "W10: 8 threads, one read-write lock, 10% reads / 90% writes, one client, 50 µs critical section",
            8, true, 50_000, false),
    W11(
            "W11: 8 client processes × 1 thread, one read-write lock, 90% reads / 10% writes, 50 µs critical section",
            8, true, 50_000, true),
    W12(
            "W12: 8 client processes × 1 thread, one read-write lock, 10% reads / 90% writes, 50 µs critical section",
            8, true, 50_000, true),
    W13(
            "W13: 8 threads, multi-locks of 2 names from a pool of 4, one client, 50 µs critical section",
            8,
            true,
            50_000,
            false),
    W14(
            "W14: 8 client processes × 1 thread, multi-locks of 2 names from a pool of 4, 50 µs critical section",
            8,
            true,
            50_000,
            true);

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

    /**
     * The share of holds that write (%), drawn at random per hold, in the read-write workloads (W9–W12); -1 in the
     * others.
     */
    int writePercent() {
        return switch (this) {
            case W9, W11 -> 10;
            case W10, W12 -> 90;
            default -> -1;
        };
    }

    /** Whether this workload drives a read-write lock (W9–W12). */
    boolean readWrite() {
        return writePercent() >= 0;
    }

    /** Whether this workload takes multi-locks of two names drawn from a pool ({@link MultiLockCheck}; W13, W14). */
    boolean multiLock() {
        return this == W13 || this == W14;
    }

    /** The peers measured in this workload: the floor only where it cannot be contended. */
    List<Peer> peers() {
        return switch (this) {
            case W1, W2 -> Peer.STANDALONE;
            case W6 -> List.of(Peer.DLOCK, Peer.REDISSON, Peer.SPRING_PUB_SUB);
            case W7, W8 -> List.of(Peer.DLOCK_SEMAPHORE, Peer.REDISSON_SEMAPHORE);
            case W9, W10, W11, W12 -> List.of(Peer.DLOCK_RW, Peer.REDISSON_RW);
            case W13, W14 -> List.of(Peer.DLOCK_MULTI, Peer.REDISSON_MULTI, Peer.REDISSON_MULTI_SORTED);
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
            case W9, W10, W11, W12 ->
                List.of(
                        Metric.PAIRS_PER_SECOND,
                        Metric.LOCK_P50,
                        Metric.LOCK_P99,
                        Metric.READER_WAIT_P99,
                        Metric.WRITER_WAIT_MEAN,
                        Metric.WRITER_WAIT_P99,
                        Metric.WRITER_P99_OVER_MEAN,
                        Metric.TOP_LEVEL_PER_ACQ,
                        Metric.TOTAL_PER_ACQ,
                        Metric.REDIS_CPU_PER_ACQ,
                        Metric.PEAK_READERS,
                        Metric.STARVED,
                        Metric.VIOLATIONS);
            case W13, W14 ->
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
