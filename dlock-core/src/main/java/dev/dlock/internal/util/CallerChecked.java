package dev.dlock.internal.util;

import dev.dlock.internal.multi.MultiAcquire;
import dev.dlock.internal.multi.MultiLock;

/**
 * A hold that an acquire checks on its caller's thread before it returns it: a single name's hold
 * ({@link ValidHoldWait}) and each part of a multi-lock ({@link MultiLock}, {@link MultiAcquire}) alike.
 */
public interface CallerChecked {
    /**
     * Whether the hold is valid for at least half its lease time now, renewing it first (one round trip)
     * when the caller's clock shows less or when {@code confirm} asks Redis to confirm it anyway (a part
     * of a multi-lock that was taken before a wait for another name). A hold that cannot be shown so
     * (lost, gone from Redis, not acknowledged) is released, and false returned: the caller tries again.
     *
     * @param confirm renew even when the clock shows enough left: what Redis says, not what this JVM
     *     last heard
     * @throws dev.dlock.LockException if the renewal fails (connection, server): the hold is released
     */
    boolean keepForCaller(boolean confirm);

    /** Without I/O: whether the hold is held and valid for at least half its lease time by this JVM's clock. */
    boolean validForHalfNow();
}
