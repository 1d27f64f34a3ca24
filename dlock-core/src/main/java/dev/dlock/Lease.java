package dev.dlock;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One hold of a distributed lock, owned by this object rather than by a thread.
 *
 * <p>A lease is valid from the moment its acquire returned until its validity deadline: the lease
 * time measured on this JVM's monotonic clock from <em>before</em> the acquire was sent, less a
 * drift allowance of 1% + 2 ms. A lease taken without an explicit lease time is renewed by the
 * client's watchdog and its deadline moves forward with every renewal; one taken with an explicit
 * lease time is never renewed and ends at its deadline.
 *
 * <p>Guard the protected resource with {@link #fencingToken()}: tokens of successive leases of one
 * lock name strictly increase, so a resource that rejects a token lower than the last one it
 * accepted cannot be written by a holder that was paused past its lease.
 *
 * <pre>{@code
 * try (Lease lease = client.lock("invoice-42").acquire()) {
 *     store.write(invoice, lease.fencingToken());
 * }
 * }</pre>
 *
 * <p>Closing the client releases its leases: afterwards {@link #release()} returns quietly and
 * {@link #isValid()} is false; no method of a lease throws {@link IllegalStateException} for a closed
 * client.
 *
 * <p>This interface's implementations are thread-safe: a lease may be released from any thread.
 */
public interface Lease extends AutoCloseable {

    /**
     * Returns the name of the lock this lease holds.
     *
     * @return the lock name
     */
    String lockName();

    /**
     * Returns this lease's fencing token, strictly greater than the token of every earlier lease of
     * the same lock name.
     *
     * @return the fencing token
     */
    long fencingToken();

    /**
     * Returns the fencing token of each lock name this lease holds, in the order the names were
     * acquired: one entry ({@link #lockName()} → {@link #fencingToken()}) for a single lock, and one
     * per name for a {@link LockClient#multiLock multi-lock}, whose tokens come from each name's own
     * counter. Guard each resource with its own name's token.
     *
     * @return an unmodifiable map of lock name to fencing token, iterated in acquisition order
     */
    default Map<String, Long> fencingTokens() {
        return Map.of(lockName(), fencingToken());
    }

    /**
     * Returns how long this lease stays valid if it is not renewed, or {@link Duration#ZERO} once it
     * was released or lost.
     *
     * @return the remaining validity, never negative
     */
    Duration remaining();

    /**
     * Tells whether this lease is still held: not released, not lost, and before its deadline.
     *
     * @return {@code true} while the lease is valid
     */
    boolean isValid();

    /**
     * Sets how long this lease has left, counted from now, longer or shorter than what it has left:
     * for a lease taken with an explicit lease time ({@link DistributedLock#tryAcquire(Duration,
     * Duration)}), as ShedLock's "lock at least for" and {@code extend} need. One owner-checked round
     * trip ({@code PEXPIRE}); the new validity counts from before it was sent, less the drift
     * allowance, like every validity. A shortening counts at once, also while the command is on its
     * way, so this JVM never believes in a lease longer than Redis keeps it. When the new time runs
     * out, the lease ends as a fixed lease does (lost, with its listeners told).
     *
     * @param remaining the new remaining time; positive (shorter than the 100 ms minimum lease time is
     *     allowed: the end of a "lock at least for" window may be near)
     * @return {@code true} if the lease still held the lock and now ends at the new time; {@code
     *     false} if it had been released or lost (a lease Redis no longer has for this owner is marked
     *     lost here)
     * @throws NullPointerException if {@code remaining} is null
     * @throws IllegalArgumentException if {@code remaining} is not positive or longer than 100 years
     * @throws IllegalStateException if the watchdog renews this lease (it was taken without a lease
     *     time): its remaining time is the watchdog's to set
     * @throws LockConnectionException if Redis did not answer within the command timeout; the lease
     *     then keeps the earlier of its old and its new end
     * @throws LockServerException if Redis answered with an error
     */
    boolean expireIn(Duration remaining);

    /**
     * Releases the lock if this lease still holds it; one Redis round trip. Waiters are woken.
     *
     * @throws LockLostException if the lease had been lost before the release (another owner's key
     *     is left untouched); thrown once, later calls return quietly
     * @throws LockConnectionException if Redis did not answer within the command timeout; the lock
     *     then expires at the end of its lease time
     * @throws LockServerException if Redis answered the release with an error
     */
    void release();

    /**
     * Releases the lock like {@link #release()}, without waiting: the round trip is sent before this
     * returns, and the future completes, on the client's callback executor ({@link
     * LockClient.Builder#callbackExecutor}), when Redis answered. Waiters are woken as by {@code
     * release()}. Each call after the first, or after {@code release()}, returns a completed future
     * (with the loss, if the lease was lost and the loss was not reported yet).
     *
     * @return a future that completes with null once the lock is released, or exceptionally with what
     *     {@link #release()} would throw: {@link LockLostException} if the lease had been lost before the
     *     release, {@link LockConnectionException} if Redis did not answer (the lock then expires at the
     *     end of its lease time), {@link LockServerException} if Redis answered with an error
     */
    CompletableFuture<Void> releaseAsync();

    /**
     * Releases the lease like {@link #release()}; calling it again, or after {@code release()}, does
     * nothing.
     *
     * @throws LockLostException if the lease had been lost before it was closed
     * @throws LockConnectionException if Redis did not answer within the command timeout
     * @throws LockServerException if Redis answered the release with an error
     */
    @Override
    void close();

    /**
     * Registers a listener that runs once when this lease is lost (not when it is released), at once
     * if it is lost already. Listeners run on the client's callback executor ({@link
     * LockClient.Builder#callbackExecutor}), never on the threads that read Redis' replies or renew
     * leases, so a listener may block; one that throws is logged and does not stop the others.
     *
     * @param listener receives the loss, naming the lock and the reason
     * @return this lease
     * @throws NullPointerException if {@code listener} is null
     */
    Lease onLost(Consumer<? super LockLostException> listener);

    /**
     * Returns a future that completes with the loss when this lease is lost, and never completes if
     * the lease is released normally. Each call returns a new future; completing it has no effect on
     * the lease. A loss completes it on the client's callback executor; if the lease is lost already,
     * it is returned completed.
     *
     * @return a future of the loss
     */
    CompletableFuture<LockLostException> whenLost();
}
