package dev.dlock;

import java.time.Duration;

/**
 * Receives the lock events of one client, for metrics and monitoring (the {@code dlock-micrometer}
 * module turns them into meters); registered with {@link LockClient.Builder#listener(LockListener)}.
 * Every method has an empty default, so a listener implements only what it needs.
 *
 * <p>Every hold reports {@link #holdStarted} once and then at most one of {@link #holdReleased},
 * {@link #holdExpired} and {@link #holdLost} (a hold still open when its client closes reports
 * released), so started minus ended is the number of holds open now. A re-entry through {@code lock()} is no new hold and
 * reports nothing.
 *
 * <p>The methods are called on the client's own threads (the threads that read Redis' replies, its
 * timer) and on the application's threads, while locks are handed over: they must be fast, must not
 * block and must be thread-safe, as a Micrometer counter is. A method that throws is logged and
 * changes nothing about the lock.
 */
public interface LockListener {

    /** How an acquire ended, as its caller saw it. */
    enum Outcome {
        /** The caller got the lock. */
        ACQUIRED,
        /** The wait ran out while others held the lock ({@code tryLock} false, an empty {@code tryAcquire}). */
        BUSY,
        /** The acquire failed: Redis unreachable or refusing, the client closed, or a lost re-entry. */
        FAILED,
        /** The caller gave up: an interrupt, or a cancelled {@code acquireAsync} future. */
        CANCELLED
    }

    /**
     * An acquire that needed a new hold ended (re-entries are not reported).
     *
     * @param lockName the lock name
     * @param outcome how it ended
     * @param waited from the call to its end, on this JVM's monotonic clock
     */
    default void acquire(String lockName, Outcome outcome, Duration waited) {}

    /**
     * A hold began: taken in Redis, or relayed from another hold of this client.
     *
     * @param lockName the lock name
     */
    default void holdStarted(String lockName) {}

    /**
     * A hold ended by its release (or the client's close).
     *
     * @param lockName the lock name
     */
    default void holdReleased(String lockName) {}

    /**
     * A hold taken with a fixed lease time reached the end of that time (or of the time {@link
     * Lease#expireIn} set) without a release: the end its holder chose, as a ShedLock "lock at least
     * for" window ends. Its {@link Lease} reports it as lost to its own listeners all the same.
     *
     * @param lockName the lock name
     * @param end the lease's loss, with its reason
     */
    default void holdExpired(String lockName, LockLostException end) {}

    /**
     * A hold was lost against its holder's plan: its renewal found the key gone or taken, it could
     * not be renewed before its deadline, or Redis no longer had a fixed lease's key.
     *
     * @param lockName the lock name
     * @param loss the loss, with its reason
     */
    default void holdLost(String lockName, LockLostException loss) {}

    /**
     * A watchdog round renewed a batch of holds in one script call, or failed to.
     *
     * @param holds how many holds the call renewed
     * @param succeeded whether Redis answered (a hold it no longer had is reported as lost)
     */
    default void renewal(int holds, boolean succeeded) {}
}
