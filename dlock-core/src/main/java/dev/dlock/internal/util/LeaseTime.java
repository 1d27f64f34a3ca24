package dev.dlock.internal.util;

/**
 * A client's lease time, and lease and queue-entry times as the scripts take them (strings of
 * milliseconds, built once for the client's own lease time). Immutable and thread-safe.
 */
public final class LeaseTime {
    private static final long MIN_ENTRY_MILLIS = 1_000;
    private static final long MAX_ENTRY_MILLIS = 5_000;

    private final long millis;
    private final String arg;
    private final String entryArg;

    public LeaseTime(long millis) {
        this.millis = millis;
        this.arg = Long.toString(millis);
        this.entryArg = Long.toString(entryMillis(millis));
    }

    /** The lease time of watchdog-renewed leases. */
    public long millis() {
        return millis;
    }

    /** How long a queue entry lives unrefreshed: the lease time, clamped to 1–5 s. */
    public static long entryMillis(long leaseMillis) {
        return Math.max(MIN_ENTRY_MILLIS, Math.min(MAX_ENTRY_MILLIS, leaseMillis));
    }

    public String arg(long leaseMillis) {
        return leaseMillis == millis ? arg : Long.toString(leaseMillis);
    }

    /** The queue entry lifetime of acquires with this lease time. */
    public String entryArg(long leaseMillis) {
        return leaseMillis == millis ? entryArg : Long.toString(entryMillis(leaseMillis));
    }
}
