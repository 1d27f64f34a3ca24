package dev.dlock.internal.util;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The {@link java.util.concurrent.locks.Lock} entry points of a {@link DistributedLock}, shared by the
 * lock of one Redis, the read-write lock's views and the Redlock lock: each maps to one {@link
 * #lockForThread} call with its wait and interruptibility, checking the interrupt flag first where the
 * {@code Lock} contract says so; the lease-owned {@code acquire}/{@code tryAcquire} overloads, each one
 * {@link #awaitLease} call; and {@link #newCondition()}, which none offers.
 * Thread-safety is the subclass's, as {@link #lockForThread} has it.
 */
public abstract class ThreadLocking implements DistributedLock {
    /** A wait without end. */
    public static final long FOREVER = Long.MAX_VALUE;

    /**
     * Takes (or re-enters) the lock for the calling thread.
     *
     * @param waitNanos how long to wait, {@link #FOREVER} for no end
     * @param interruptible whether an interrupt ends the wait
     * @return true when the thread holds the lock
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    protected abstract boolean lockForThread(long waitNanos, boolean interruptible) throws InterruptedException;

    /**
     * Takes a lease owned by no thread, interruptibly.
     *
     * @param waitNanos how long to wait, {@link #FOREVER} for no end
     * @param leaseMillis the lease time
     * @param renewed whether the watchdog renews it (else a fixed lease)
     * @return the lease, or null when the wait ran out
     * @throws InterruptedException if interrupted while waiting
     */
    protected abstract Lease awaitLease(long waitNanos, long leaseMillis, boolean renewed) throws InterruptedException;

    /** The lease time of watchdog-renewed leases: the client's. */
    protected abstract long clientLeaseMillis();

    /** What an interrupted wait says it waited for, such as {@code lock 'x'}. */
    protected abstract String waitedFor();

    @Override
    public Lease acquire() {
        return acquireLease(FOREVER, clientLeaseMillis(), true);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        return Optional.ofNullable(acquireLease(w.toNanos(), clientLeaseMillis(), true));
    }

    @Override
    public Optional<Lease> tryAcquire(Duration wait, Duration leaseTime) {
        Duration w = Args.notNegative("wait", wait);
        Duration lease = Args.leaseTime("leaseTime", leaseTime);
        return Optional.ofNullable(acquireLease(w.toNanos(), lease.toMillis(), false));
    }

    private Lease acquireLease(long waitNanos, long leaseMillis, boolean renewed) {
        try {
            return awaitLease(waitNanos, leaseMillis, renewed);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for " + waitedFor(), e);
        }
    }

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
