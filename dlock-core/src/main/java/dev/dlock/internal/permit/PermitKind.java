package dev.dlock.internal.permit;

import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.internal.lease.LeaseKind;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.wait.QueueTarget;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A kind of lock on the shared-lock model ({@code shared.lua}, docs/lock-family.md): the semaphore
 * ({@link RedisSemaphore}) and the two views of a read-write lock ({@link ReadWriteView}). It is the
 * {@link QueueTarget} of each {@link PermitAcquisition} of its name: the five keys of the name, the
 * acquire script, how to read its busy replies and how to release an owner's hold; and, as the {@link
 * LeaseKind} of the leases it makes, how they end and are renewed. Implementations are thread-safe.
 */
interface PermitKind extends QueueTarget {
    /** The five keys of the name (record, fence, holds, queue, queue entries). */
    SemaphoreKeys keys();

    /**
     * Sends one try of the kind's acquire script: KEYS the five keys; ARGV owner, lease ms, mode, queue
     * entry lifetime, wait id, weight, and one argument of the kind's own; replies a token, 0 when
     * refused, or busy (-2 - ms).
     */
    @Override
    CompletableFuture<Replicated> send(String[] args);

    /** Owner-checked release of an owner's hold (or its queue entry), granting the waiters that now fit. */
    @Override
    CompletableFuture<Boolean> release(String owner);

    /** The client's open or closed state. */
    Lifecycle lifecycle();

    /** How messages name it, e.g. {@code semaphore 'x'}. */
    @Override
    String describe();

    @Override
    default LockKeys lockKeys() {
        return keys().lock();
    }

    /**
     * {@code reply}: {@code -2 - ms to the earliest holder's expiry}, -1 when none holds (a queue ahead);
     * 0 refuses for good (a read hold to be taken beside a write hold that is gone).
     */
    @Override
    default long busySleepNanos(long reply, long refreshNanos) {
        if (reply == 0) {
            throw new LockLostException(keys().name(), 0, "the hold this acquire was to be taken beside is gone");
        }
        long untilExpiry = -2 - reply;
        return untilExpiry >= 0 ? TimeUnit.MILLISECONDS.toNanos(untilExpiry) + 1_000_000L : refreshNanos;
    }

    /** A hold taken while the client closed is given back: the acquire fails. */
    @Override
    default RuntimeException refuseTaken() {
        return lifecycle().isClosed() ? new LockException("the LockClient was closed") : null;
    }

    @Override
    default void undoUnknown(String owner) {
        release(owner).whenComplete((ok, e) -> {
            if (e != null) {
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock could not undo an acquire of {0} whose outcome is unknown ({1}); a hold"
                                + " it took or its queue entry ends when their lease or entry runs out",
                        keys().record(),
                        e.toString());
            }
        });
    }

    /** A hold of the shared model ends in Redis alone: there is no line in the JVM to relay it to. */
    @Override
    default CompletableFuture<Boolean> release(RedisLease lease) {
        return release(lease.owner());
    }

    @Override
    default CompletableFuture<Boolean> releaseInRedis(RedisLease lease) {
        return release(lease.owner());
    }

    /** Nothing in this JVM waits on a hold's end: the waiters are queued in Redis. */
    @Override
    default void lost(RedisLease lease) {}

    /** Every holder is an entry of the name's holds hash, renewed by server time. */
    @Override
    default Script renewScript() {
        return Scripts.SEMAPHORE_RENEW;
    }

    @Override
    default String renewKey(RedisLease lease) {
        return keys().holds();
    }
}
