package dev.dlock.internal.util;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The {@link java.util.concurrent.locks.Lock} side of a {@link DistributedLock}, shared by every kind
 * (the lock of one Redis, the read-write lock's views, the multi-lock, the Redlock lock): the entry
 * points each map to one {@code lockForThread} call with its wait and interruptibility, checking the
 * interrupt flag first where the {@code Lock} contract says so; re-entry, {@code unlock()} and the
 * calling thread's hold, counted in the client's {@link ThreadHolds} under this lock's role and
 * identity, so that every view of a lock agrees; the lease-owned {@code acquire}/{@code tryAcquire}
 * overloads, each one {@link #awaitLease} call; and {@link #newCondition()}, which none offers.
 * Thread-safe: a thread's hold is only touched by that thread; taking a first hold is the subclass's.
 */
public abstract class ThreadLocking implements DistributedLock {
    /** A wait without end. */
    public static final long FOREVER = Long.MAX_VALUE;

    private final ThreadHolds holds;
    private final String role;
    private final Object identity;

    /**
     * A lock whose thread holds are counted in {@code holds}.
     *
     * @param holds the client's thread holds
     * @param role the kind's role in them ({@link ThreadHolds#MUTEX}, {@link ThreadHolds#MULTI}, ...)
     * @param identity what makes two views the same lock in that role: the lock name, or a
     *     multi-lock's names
     */
    protected ThreadLocking(ThreadHolds holds, String role, Object identity) {
        this.holds = holds;
        this.role = role;
        this.identity = identity;
    }

    /**
     * Takes a first hold of the lock for the calling thread (one that does not hold it yet).
     *
     * @param waitNanos how long to wait, {@link #FOREVER} for no end
     * @param interruptible whether an interrupt ends the wait
     * @return the hold, or null when the wait ran out
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    protected abstract ThreadHolds.Reentrant takeForThread(long waitNanos, boolean interruptible)
            throws InterruptedException;

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

    /** What an interrupted wait says it waited for, such as {@code lock 'x'}; also what a thread does not hold. */
    protected abstract String waitedFor();

    /**
     * Takes (or re-enters) the lock for the calling thread. A re-entry counts one more hold once the
     * lease confirmed it ({@link ThreadHolds.Reentrant#confirmForReentry}), which throws its loss.
     *
     * @return true when the thread holds the lock
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    private boolean lockForThread(long waitNanos, boolean interruptible) throws InterruptedException {
        ThreadHolds.Hold hold = holds.ofCurrentThread(role, identity);
        if (hold != null) {
            if (hold.count == Integer.MAX_VALUE) {
                throw new Error("maximum lock count exceeded");
            }
            hold.lease.confirmForReentry();
            hold.count++;
            return true;
        }
        ThreadHolds.Reentrant lease = takeForThread(waitNanos, interruptible);
        if (lease == null) {
            return false;
        }
        holds.add(role, identity, lease);
        return true;
    }

    @Override
    public void unlock() {
        ThreadHolds.Hold hold = heldOrThrow();
        if (--hold.count > 0) {
            return;
        }
        holds.remove(hold);
        hold.lease.release();
    }

    @Override
    public boolean isHeldByCurrentThread() {
        ThreadHolds.Hold hold = holds.ofCurrentThread(role, identity);
        return hold != null && hold.lease.isValid();
    }

    @Override
    public int getHoldCount() {
        ThreadHolds.Hold hold = holds.ofCurrentThread(role, identity);
        return hold == null ? 0 : hold.count;
    }

    @Override
    public long fencingToken() {
        return heldOrThrow().lease.fencingToken();
    }

    @Override
    public Duration remaining() {
        return heldOrThrow().lease.remaining();
    }

    /**
     * The calling thread's hold of this lock.
     *
     * @throws IllegalMonitorStateException if it holds none
     */
    protected final ThreadHolds.Hold heldOrThrow() {
        ThreadHolds.Hold hold = holds.ofCurrentThread(role, identity);
        if (hold == null) {
            throw new IllegalMonitorStateException(
                    "the current thread does not hold " + waitedFor() + " through this client");
        }
        return hold;
    }

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
