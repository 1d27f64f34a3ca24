package dev.dlock.internal;

import dev.dlock.DistributedLock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The {@link java.util.concurrent.locks.Lock} entry points of a {@link DistributedLock}, shared by the
 * lock of one Redis and the Redlock lock: each maps to one {@link #lockForThread} call with its wait
 * and interruptibility, checking the interrupt flag first where the {@code Lock} contract says so;
 * and {@link #newCondition()}, which neither offers.
 * Thread-safety is the subclass's, as {@link #lockForThread} has it.
 */
abstract class ThreadLocking implements DistributedLock {
    /** A wait without end. */
    static final long FOREVER = Long.MAX_VALUE;

    /**
     * Takes (or re-enters) the lock for the calling thread.
     *
     * @param waitNanos how long to wait, {@link #FOREVER} for no end
     * @param interruptible whether an interrupt ends the wait
     * @return true when the thread holds the lock
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    abstract boolean lockForThread(long waitNanos, boolean interruptible) throws InterruptedException;

    @Override
    public void lock() {
        try {
            lockForThread(FOREVER, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        lockForThread(FOREVER, true);
    }

    @Override
    public boolean tryLock() {
        try {
            return lockForThread(0, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Duration wait = Args.notNegative("time", time, unit);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return lockForThread(wait.toNanos(), true);
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("dlock offers no conditions: waiting on one would need the"
                + " lock to be given up and retaken atomically across processes, which Redis cannot promise");
    }
}
