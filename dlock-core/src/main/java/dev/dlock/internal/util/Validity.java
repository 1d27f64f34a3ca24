package dev.dlock.internal.util;

/**
 * The arithmetic of a hold's validity on this JVM's monotonic clock (docs/waiting.md, "Validity at
 * hand-off"): a hold whose expiry was set by a command sent at {@code sentAt} is valid until its
 * deadline, the lease time after the sending less Redlock's drift allowance; and no acquire returns a
 * hold with less than half its lease time left.
 */
public final class Validity {
    private Validity() {}

    /** The deadline of a hold whose expiry was set by a command sent at {@code sentAt}: 1% + 2 ms less. */
    public static long deadlineFrom(long sentAt, long leaseMillis) {
        long leaseNanos = leaseMillis * 1_000_000L;
        return sentAt + leaseNanos - leaseNanos / 100 - 2_000_000L;
    }

    /** The least validity any acquire returns a hold with: half its lease. */
    public static long marginNanos(long leaseMillis) {
        return leaseMillis * 500_000L;
    }

    /** Whether a hold whose expiry was set by a command sent at {@code sentAt} still has the margin at {@code now}. */
    public static boolean hasMargin(long sentAt, long leaseMillis, long now) {
        return deadlineFrom(sentAt, leaseMillis) - now >= marginNanos(leaseMillis);
    }
}
