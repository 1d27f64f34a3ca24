package dev.dlock.bench;

/** A measured quantity, with the unit and number format its table column uses. */
enum Metric {
    PAIRS_PER_SECOND("pairs/s", "%.0f"),
    LOCK_P50("lock p50 µs", "%.0f"),
    LOCK_P99("lock p99 µs", "%.0f"),
    LOCK_P999("lock p99.9 µs", "%.0f"),
    LOCK_MEAN("lock mean µs", "%.0f"),
    UNLOCK_P50("unlock p50 µs", "%.0f"),
    UNLOCK_P99("unlock p99 µs", "%.0f"),
    UNLOCK_P999("unlock p99.9 µs", "%.0f"),
    HANDOFF_P50("handoff p50 µs", "%.0f"),
    HANDOFF_P99("handoff p99 µs", "%.0f"),
    REACQUIRE_SHARE("re-acquired by releaser", "%.0f%%"),
    WAIT_P999_OVER_MEAN("wait p99.9 / mean", "%.1f"),
    LOCK_P99_OVER_MEAN("lock p99 / mean", "%.1f"),
    TOP_LEVEL_PER_ACQ("client cmds / acq", "%.2f"),
    SCRIPTS_PER_ACQ("script calls / acq", "%.2f"),
    TOTAL_PER_ACQ("all cmds / acq", "%.2f"),
    REDIS_CPU_PER_ACQ("Redis CPU µs / acq", "%.1f"),
    CLIENT_CPU_PER_ACQ("client CPU µs / acq", "%.1f"),
    ALLOC_PER_PAIR("alloc B / pair", "%.0f"),
    STARVED("threads or clients without an acquisition", "%.0f"),
    WAIT_ACROSS_END("longest wait across the window end (ms)", "%.0f"),
    VIOLATIONS("exclusion violations", "%.0f"),
    PEAK_HOLDERS("most holders at once", "%.0f"),
    READER_WAIT_P99("reader wait p99 µs", "%.0f"),
    WRITER_WAIT_MEAN("writer wait mean µs", "%.0f"),
    WRITER_WAIT_P99("writer wait p99 µs", "%.0f"),
    WRITER_P99_OVER_MEAN("writer wait p99 / mean", "%.1f"),
    PEAK_READERS("most readers at once", "%.0f"),
    LEASES("leases held", "%.0f"),
    RENEWAL_CALLS_PER_100("renewal calls / 100 leases / interval", "%.2f"),
    TOTAL_PER_INTERVAL("all cmds / interval", "%.0f"),
    REDIS_CPU_PER_INTERVAL("Redis CPU ms / interval", "%.1f"),
    LEASES_KEPT("leases kept past their TTL", "%.0f%%");

    final String column;
    final String format;

    Metric(String column, String format) {
        this.column = column;
        this.format = format;
    }

    String format(double value) {
        return Double.isNaN(value) ? "–" : String.format(java.util.Locale.ROOT, format, value);
    }
}
