package dev.dlock.internal.mutex;

import java.util.concurrent.TimeUnit;

/**
 * The fencing tokens a checked relay reserved for the free relays after it ({@link NameRelay}): usable for
 * {@value NameRelay#CHECK_MILLIS} ms after the pass that reserved them was sent, and only by the hold that
 * reserved them. Not thread-safe: guarded by the gate's monitor.
 */
final class ReservedTokens {
    private static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(NameRelay.CHECK_MILLIS);

    private long next; // next..last are unused
    private long last = -1;
    private long checkedAt; // ticker nanos when the pass that reserved the block was sent

    /** A pass sent at {@code sentAt} issued {@code first} and reserved the rest of the block after it. */
    void reserve(long first, long sentAt) {
        next = first + 1;
        last = first + NameRelay.BLOCK - 1;
        checkedAt = sentAt;
    }

    /** The hold ended: the rest of the block belongs to it and is never used. */
    void clear() {
        next = 0;
        last = -1;
    }

    /** Whether a free relay may take a token at {@code now}. */
    boolean usable(long now) {
        return next <= last && now - checkedAt < CHECK_NANOS;
    }

    long take() {
        return next++;
    }
}
