package dev.dlock.internal.permit;

import dev.dlock.internal.lease.LeaseKind;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.spi.Script;
import java.util.concurrent.CompletableFuture;

/**
 * A kind of lock on the shared-lock model ({@code shared.lua}, docs/lock-family.md): the semaphore
 * ({@link RedisSemaphore}) and the two views of a read-write lock ({@link ReadWriteView}). What a
 * {@link PermitAcquisition} needs of it: the five keys of the name, the acquire script and how to
 * release an owner's hold; and, as the {@link LeaseKind} of the leases it makes, how they end and are
 * renewed. Implementations are thread-safe.
 */
interface PermitKind extends LeaseKind {
    /** The five keys of the name (record, fence, holds, queue, queue entries). */
    SemaphoreKeys keys();

    /**
     * The acquire script: KEYS the five keys; ARGV owner, lease ms, mode, queue entry lifetime, wait
     * id, weight, and one argument of the kind's own; replies a token, 0 when refused, or busy (-2 - ms).
     */
    Script acquireScript();

    /** Owner-checked release of an owner's hold (or its queue entry), granting the waiters that now fit. */
    CompletableFuture<Boolean> release(String owner);

    /** The client's open or closed state. */
    Lifecycle lifecycle();

    /** How messages name it, e.g. {@code semaphore 'x'}. */
    String describe();

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
