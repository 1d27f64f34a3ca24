package dev.dlock;

/**
 * A read-write lock of one name: many readers or one writer, across every client (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/lock-family.md">docs/lock-family.md</a>).
 * Its {@link #readLock()} and {@link #writeLock()} are {@link DistributedLock}s, so each offers the
 * thread-owned {@code lock()/unlock()} (reentrant per thread and view) and the lease-owned {@code
 * acquire()}; every hold, read or write, is a {@link Lease} of its own with its own fencing token from
 * the name's one counter (tokens strictly increase across read holds, write holds and the name's
 * mutex), renewed by the client's watchdog, and lost and reported like a mutex's.
 *
 * <pre>{@code
 * DistributedReadWriteLock prices = client.readWriteLock("prices");
 * prices.readLock().lock();          // many readers at once, in every process
 * try { read(); } finally { prices.readLock().unlock(); }
 * try (Lease write = prices.writeLock().acquire()) {   // alone
 *     update(write.fencingToken());
 * }
 * }</pre>
 *
 * <p><b>Fairness is strict FIFO.</b> A writer that waits holds back every reader that comes after it,
 * so a stream of readers cannot starve it: it gets in as soon as the readers that held the lock when it
 * queued have released. A release wakes exactly the waiters that can proceed: all the readers at the
 * head of the queue, or the one writer at its head. Re-entry of a thread's own hold never waits.
 *
 * <p><b>Downgrade, not upgrade.</b> A thread that holds the write lock through {@code lock()} may take
 * the read lock ({@code readLock().lock()}: at once, beside its write hold), then release the write
 * lock and keep reading; {@link #downgrade(Lease)} does the same for a write lease. Upgrading is
 * refused: a thread that holds the read lock through {@code lock()} and asks for the write lock (any
 * of its methods) gets an {@link IllegalStateException} instead of waiting for itself forever, as two
 * upgrading readers would. Neither {@link java.util.concurrent.locks.ReentrantReadWriteLock} nor
 * Redisson's {@code RReadWriteLock} upgrades either. Read leases taken through {@code acquire()} are
 * owners of their own: a write acquire waits for them like for anyone's, so release them first.
 *
 * <p>A name is one kind of lock at a time: while a read-write lock holds the name (its record lives 7
 * days after the last acquire), the mutex's and the semaphore's calls on it fail with a {@link
 * LockServerException} naming the key, and this lock's calls fail the same way on a name held as
 * another kind; nothing of either is overwritten. The Redlock client has no read-write locks.
 *
 * <p>Implementations are thread-safe; a view is cheap and holds no Redis state of its own.
 */
public interface DistributedReadWriteLock {

    /**
     * Returns the lock's name.
     *
     * @return the name
     */
    String name();

    /**
     * Returns the read view: a {@link DistributedLock} whose holds exclude writers and not each other.
     * {@code isLocked()} tells whether anyone holds the read lock; {@code info()} shows the latest read
     * holder (its owner id, remaining lease and token) and, when none, the last token issued.
     *
     * @return the read lock
     */
    DistributedLock readLock();

    /**
     * Returns the write view: a {@link DistributedLock} whose hold excludes everyone else. {@code
     * isLocked()} tells whether a writer holds it; {@code info()} shows the writer.
     *
     * @return the write lock
     */
    DistributedLock writeLock();

    /**
     * Takes a read lease beside a write lease, at once and whatever the queue holds: the first step of
     * a downgrade. Release the write lease next; the read lease keeps writers out throughout, and the
     * readers queued at the head get in beside it. The read lease is renewed by the watchdog.
     *
     * @param writeLease a valid lease of this name's write lock, from this client
     * @return the read lease, with a fencing token of its own
     * @throws NullPointerException if {@code writeLease} is null
     * @throws IllegalArgumentException if {@code writeLease} is not a lease of this name's write lock
     *     taken through this client
     * @throws LockLostException if the write lease is no longer held (nothing is taken)
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis does not answer within the command timeout
     * @throws LockServerException if Redis answers with an error
     */
    Lease downgrade(Lease writeLease);
}
