package dev.dlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A semaphore of one name: a count of permits kept in Redis, taken in leases. Each acquire takes one
 * or more permits as one {@link Lease}, with its own fencing token (tokens of one name strictly
 * increase across all its permits and its mutex's holds) and its own lease time: renewed by the
 * client's watchdog, or fixed. A holder that crashes gives its permits back when its lease runs out,
 * by Redis' clock alone (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/lock-family.md">docs/lock-family.md</a>).
 *
 * <pre>{@code
 * DistributedSemaphore exports = client.semaphore("exports", 3);
 * try (Lease lease = exports.acquire()) {   // at most 3 holders at a time, across every client
 *     export(batch, lease.fencingToken());
 * }
 * }</pre>
 *
 * <p>The count lives in Redis: the first call of a semaphore to do I/O (not {@link
 * LockClient#semaphore}, which is cheap and does none) creates it with the count given; any later
 * call, from any client, whose semaphore was given another count fails with a {@link
 * LockServerException} naming both. {@link #setPermits} changes the count in Redis without changing
 * the one every client must be given (the count the semaphore was created with); a changed count does
 * not expire. If Redis loses the count while permits are held or waited for (its key deleted or
 * evicted, or a write lost in a failover), acquires and reads fail with a {@link LockServerException}
 * saying so until {@link #setPermits} sets it again: it is never silently replaced by the count in code.
 *
 * <p>Fairness is strict FIFO across every client: a waiter queued for 2 permits is not overtaken by
 * later waiters for 1 even while 1 is free. A release grants the waiters at the head of the queue
 * that now fit, waking exactly those. Waiting needs no polling.
 *
 * <p>A name is one kind of lock at a time: while a name's semaphore exists (while any permit is held
 * or waited for, 7 days after its last use, and for good once {@link #setPermits} changed its count),
 * {@code lock(name)} on it fails with a {@link LockServerException}, and while a mutex holds
 * the name, the semaphore's calls do; nothing of either is overwritten.
 *
 * <p>This interface's implementations are thread-safe; a view is cheap and holds no state of its own.
 */
public interface DistributedSemaphore {

    /**
     * Returns the semaphore's name.
     *
     * @return the name
     */
    String name();

    /**
     * Returns the count this view was given, which must be the count the semaphore was created with.
     *
     * @return the count given to {@link LockClient#semaphore}
     */
    int permits();

    /**
     * Takes one permit, waiting as long as it takes; the lease is renewed by the watchdog.
     *
     * @return the lease of the permit
     * @throws LockException if the thread is interrupted while waiting (the interrupt flag is set
     *     again) or the client is closed meanwhile
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException if the name holds another kind of lock, the semaphore was created
     *     with another count, or Redis answers with an error
     * @throws IllegalStateException if the client is closed
     */
    Lease acquire();

    /**
     * Takes {@code n} permits as one lease, waiting as long as it takes; renewed by the watchdog.
     *
     * @param n how many permits, 1 to {@link #permits()}
     * @return the lease of the permits
     * @throws IllegalArgumentException if {@code n} is not in 1..{@link #permits()} (before any I/O)
     * @throws LockException if the thread is interrupted while waiting or the client is closed
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException as {@link #acquire()}, and if the semaphore's count in Redis (after
     *     {@link #setPermits}) is below {@code n}
     * @throws IllegalStateException if the client is closed
     */
    Lease acquire(int n);

    /**
     * Takes one permit if it can within {@code wait}; renewed by the watchdog.
     *
     * @param wait how long to wait; zero tries once
     * @return the lease, or empty if the wait ran out
     * @throws NullPointerException if {@code wait} is null
     * @throws IllegalArgumentException if {@code wait} is negative
     * @throws LockException if the thread is interrupted while waiting or the client is closed
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException as {@link #acquire()}
     * @throws IllegalStateException if the client is closed
     */
    Optional<Lease> tryAcquire(Duration wait);

    /**
     * Takes {@code n} permits as one lease if it can within {@code wait}; renewed by the watchdog.
     *
     * @param n how many permits, 1 to {@link #permits()}
     * @param wait how long to wait; zero tries once
     * @return the lease, or empty if the wait ran out
     * @throws NullPointerException if {@code wait} is null
     * @throws IllegalArgumentException if {@code n} is out of range or {@code wait} is negative
     * @throws LockException if the thread is interrupted while waiting or the client is closed
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException as {@link #acquire(int)}
     * @throws IllegalStateException if the client is closed
     */
    Optional<Lease> tryAcquire(int n, Duration wait);

    /**
     * Takes {@code n} permits as one lease with a fixed lease time, not renewed: the permits come
     * back when it runs out unless released earlier ({@link Lease#expireIn} may move its end).
     *
     * @param n how many permits, 1 to {@link #permits()}
     * @param wait how long to wait; zero tries once
     * @param leaseTime how long the lease lasts; at least 100 ms
     * @return the lease, or empty if the wait ran out
     * @throws NullPointerException if {@code wait} or {@code leaseTime} is null
     * @throws IllegalArgumentException if an argument is out of range
     * @throws LockException if the thread is interrupted while waiting or the client is closed
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException as {@link #acquire(int)}
     * @throws IllegalStateException if the client is closed
     */
    Optional<Lease> tryAcquire(int n, Duration wait, Duration leaseTime);

    /**
     * Takes {@code n} permits without blocking the calling thread; renewed by the watchdog. The
     * future completes on the client's callback executor with the lease, or with null if the wait ran
     * out; cancelling it gives up the wait (permits granted meanwhile are released).
     *
     * @param n how many permits, 1 to {@link #permits()}
     * @param wait how long to wait
     * @return the future lease
     * @throws NullPointerException if {@code wait} is null
     * @throws IllegalArgumentException if {@code n} is out of range or {@code wait} is negative
     * @throws IllegalStateException if the client is closed
     */
    CompletableFuture<Lease> acquireAsync(int n, Duration wait);

    /**
     * Returns how many permits are free now: the count in Redis less those held (0 when more are
     * held, after {@link #setPermits} lowered it). One round trip; a snapshot.
     *
     * @return the free permits, never negative
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException if the name holds another kind of lock, the semaphore was created
     *     with another count, or Redis answers with an error
     * @throws IllegalStateException if the client is closed
     */
    int availablePermits();

    /**
     * Reads the semaphore from Redis: kind {@code semaphore}, every permit holder with the permits it
     * holds, the queue of waiters with the permits each asks for, and as its holder the latest permit
     * holder (the highest fencing token; when none, the last token issued for the name). Makes the
     * semaphore's record at first use, as {@link #availablePermits()} does. One round trip; a snapshot.
     *
     * @return a snapshot of the semaphore
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException if the name holds another kind of lock, the semaphore was created
     *     with another count, or Redis answers with an error
     * @throws IllegalStateException if the client is closed
     */
    LockInfo info();

    /**
     * Changes the semaphore's count in Redis. More permits grant the queued waiters that now fit, at
     * once; fewer leave every holder its permits and let nobody in until the holders are within the
     * new count. Every client keeps being given the count the semaphore was created with. A count other
     * than that one is kept in Redis without expiry, until {@code setPermits} puts that one back or the
     * name is purged; it also sets the count again after Redis lost it.
     *
     * @param permits the new count, at least 1
     * @throws IllegalArgumentException if {@code permits} is below 1 (before any I/O)
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException if the name holds another kind of lock, the semaphore was created
     *     with another count, or Redis answers with an error
     * @throws IllegalStateException if the client is closed
     */
    void setPermits(int permits);
}
