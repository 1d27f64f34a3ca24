package dev.dlock;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A named lock in Redis, offered in two ownership styles.
 *
 * <ul>
 *   <li><b>Thread-owned</b>, through {@link Lock}: reentrant per thread with a hold count, like
 *       {@link java.util.concurrent.locks.ReentrantLock}. Only the first {@code lock()} and the last
 *       {@code unlock()} of a thread touch Redis; {@code unlock()} from a thread that does not hold
 *       the lock throws {@link IllegalMonitorStateException}.
 *   <li><b>Lease-owned</b>, through {@link #acquire()}, {@link #tryAcquire(Duration)} and {@link
 *       #acquireAsync(Duration)}: every call takes a new, independent hold (not reentrant) whose
 *       owner is the returned {@link Lease}, which may be released from any thread.
 * </ul>
 *
 * <p>Every acquire that succeeds, reentry included, returns a hold that is valid for at least half
 * of its lease time, measured on this JVM's monotonic clock when it returns: a hand-off that comes
 * late, or a reply that was slow, costs one more round trip rather than a shorter hold.
 *
 * <p>A thread-owned hold and a lease are different owners: a thread that holds the lock through
 * {@code lock()} and then calls {@code acquire()} on the same name waits for itself.
 *
 * <p>Waiting never polls Redis: waiters sleep on the client's pub/sub connection and are woken by a
 * release, or at the latest when the holder's lease runs out.
 *
 * <pre>{@code
 * DistributedLock lock = client.lock("nightly-report");
 * if (lock.tryLock(5, TimeUnit.SECONDS)) {
 *     try { runReport(); } finally { lock.unlock(); }
 * }
 * }</pre>
 *
 * <p>Implementations are thread-safe and hold no Redis state of their own: creating one is cheap and
 * an unused one costs nothing but its memory.
 */
public interface DistributedLock extends Lock {

    /**
     * Returns this lock's name.
     *
     * @return the name
     */
    String name();

    /**
     * Acquires the lock for the calling thread, waiting as long as it takes; reentrant.
     *
     * @throws LockLostException if the calling thread holds the lock already and its hold was lost
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error (for example: the key holds
     *     another type)
     */
    @Override
    void lock();

    /**
     * Acquires the lock for the calling thread unless interrupted; reentrant. An interrupted wait
     * leaves no lock behind.
     *
     * @throws InterruptedException if the thread is interrupted before or while waiting
     * @throws LockLostException if the calling thread holds the lock already and its hold was lost
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error
     */
    @Override
    void lockInterruptibly() throws InterruptedException;

    /**
     * Acquires the lock for the calling thread if it is free now (one round trip) or already held by
     * this thread.
     *
     * @return {@code true} if the calling thread now holds the lock
     * @throws LockLostException if the calling thread holds the lock already and its hold was lost
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error
     */
    @Override
    boolean tryLock();

    /**
     * Acquires the lock for the calling thread, waiting at most {@code time}.
     *
     * @param time the longest wait; zero means one try
     * @param unit the unit of {@code time}
     * @return {@code true} if the calling thread now holds the lock
     * @throws InterruptedException if the thread is interrupted before or while waiting
     * @throws IllegalArgumentException if {@code time} is negative or overflows
     * @throws NullPointerException if {@code unit} is null
     * @throws LockLostException if the calling thread holds the lock already and its hold was lost
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error
     */
    @Override
    boolean tryLock(long time, TimeUnit unit) throws InterruptedException;

    /**
     * Releases one hold of the calling thread; the last one releases the lock in Redis.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock (also after
     *     the client was closed, which released every hold)
     * @throws LockLostException if this was the last hold and the lease had been lost meanwhile
     *     (the hold is dropped either way, and another owner's key is left untouched)
     * @throws LockConnectionException if Redis cannot be reached within the command timeout (the
     *     hold is dropped and the lock expires at the end of its lease time)
     */
    @Override
    void unlock();

    /**
     * Not supported: a condition would need the lock to be given up and taken back atomically across
     * processes, which a Redis lock cannot promise.
     *
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    Condition newCondition();

    /**
     * Takes a new lease, waiting as long as it takes. The lease is renewed by the watchdog until it
     * is released.
     *
     * @return the lease
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error
     * @throws LockException if the waiting thread is interrupted (the interrupt flag is kept)
     */
    Lease acquire();

    /**
     * Takes a new lease if one can be had within {@code wait}. The lease is renewed by the watchdog
     * until it is released.
     *
     * @param wait the longest wait; {@link Duration#ZERO} means one try
     * @return the lease, or empty if the lock stayed busy
     * @throws NullPointerException if {@code wait} is null
     * @throws IllegalArgumentException if {@code wait} is negative or overflows
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error
     * @throws LockException if the waiting thread is interrupted (the interrupt flag is kept)
     */
    Optional<Lease> tryAcquire(Duration wait);

    /**
     * Takes a new lease with a fixed lease time if one can be had within {@code wait}. The lease is
     * not renewed: it ends at its deadline unless released earlier.
     *
     * @param wait the longest wait; {@link Duration#ZERO} means one try
     * @param leaseTime how long the lease lasts, at least 100 ms
     * @return the lease, or empty if the lock stayed busy
     * @throws NullPointerException if a duration is null
     * @throws IllegalArgumentException if a duration is not positive (zero is allowed for {@code
     *     wait}) or overflows
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if Redis answers with an error
     * @throws LockException if the waiting thread is interrupted (the interrupt flag is kept)
     */
    Optional<Lease> tryAcquire(Duration wait, Duration leaseTime);

    /**
     * Takes a new lease without blocking the calling thread. The future completes with the lease,
     * with {@code null} if the lock stayed busy for {@code wait}, or exceptionally with a {@link
     * LockException}. Cancelling the future gives up the wait; a lock acquired concurrently with the
     * cancellation is released. The future completes on the client's callback executor ({@link
     * LockClient.Builder#callbackExecutor}), never on a thread that reads Redis' replies, so the
     * stages chained on it may take their time without delaying other acquires.
     *
     * @param wait the longest wait; {@link Duration#ZERO} means one try
     * @return a future of the lease, or of {@code null} when the wait ran out
     * @throws NullPointerException if {@code wait} is null
     * @throws IllegalArgumentException if {@code wait} is negative or overflows
     * @throws IllegalStateException if the client is closed
     */
    CompletableFuture<Lease> acquireAsync(Duration wait);

    /**
     * Tells whether anybody holds this lock now; one Redis round trip.
     *
     * @return {@code true} if the lock is held
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     */
    boolean isLocked();

    /**
     * Tells whether the calling thread holds this lock through {@link #lock()} and its lease is still
     * valid; no I/O.
     *
     * @return {@code true} if the calling thread holds the lock
     */
    boolean isHeldByCurrentThread();

    /**
     * Returns the calling thread's hold count; no I/O.
     *
     * @return the number of unmatched {@code lock()} calls of the calling thread
     */
    int getHoldCount();

    /**
     * Returns the fencing token of the calling thread's hold, for the resource the lock guards to
     * reject stale writers (as {@link Lease#fencingToken()} does for a lease); no I/O. It stays the
     * same for the whole hold, re-entries included.
     *
     * @return the token
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    long fencingToken();

    /**
     * Returns the fencing token of each name the calling thread's hold covers, in acquisition order (as
     * {@link Lease#fencingTokens()} does for a lease): one entry for a single lock, one per name for a
     * {@link LockClient#multiLock multi-lock}; no I/O.
     *
     * @return an unmodifiable map of lock name to fencing token, iterated in acquisition order
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    default Map<String, Long> fencingTokens() {
        return Map.of(name(), fencingToken());
    }

    /**
     * Returns how long the calling thread's hold is still valid by this JVM's clock (as {@link
     * Lease#remaining()}); the watchdog's renewals move it forward. Zero once the hold is lost.
     *
     * @return the remaining validity, never negative
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    Duration remaining();

    /**
     * Reads the holder, remaining lease time and fencing token from Redis, with every holder of the name
     * and the waiters queued in Redis (none on Redlock, whose waiters poll); one round trip. A multi-lock
     * has no single snapshot: ask each name's {@code lock(name).info()}.
     *
     * @return a snapshot of the lock
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if the lock's key holds another type
     * @throws UnsupportedOperationException on a multi-lock
     */
    LockInfo info();
}
