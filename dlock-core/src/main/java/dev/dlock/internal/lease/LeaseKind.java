package dev.dlock.internal.lease;

import dev.dlock.internal.mutex.NameRelay;
import dev.dlock.internal.permit.RedisSemaphore;
import dev.dlock.spi.Script;
import java.util.concurrent.CompletableFuture;

/**
 * What one kind of lock does in Redis for its {@link RedisLease}s: how a lease is released, renewed
 * and told of its loss. The mutex's is its name's {@link NameRelay} (relays, {@code release.lua}, {@code
 * renew.lua}); a semaphore's is its {@link RedisSemaphore} ({@code semaphore-*.lua}). Implementations
 * are thread-safe.
 */
public interface LeaseKind {
    /**
     * Ends a lease its holder released (already marked released): relayed or released in Redis.
     *
     * @return true if the lease still held in Redis
     */
    CompletableFuture<Boolean> release(RedisLease lease);

    /** An owner-checked release in Redis and nothing else: a lease that ran out, or a closing client. */
    CompletableFuture<Boolean> releaseInRedis(RedisLease lease);

    /** The lease was lost (its deadline passed, or a renewal found it gone). */
    void lost(RedisLease lease);

    /**
     * The script that renews a batch of this kind's leases, as {@code renew.lua} does: KEYS[i] the
     * key of lease i ({@link #renewKey}), ARGV[1] the lease time in ms, ARGV[i+1] its owner id;
     * returns an array of 1 (renewed) or 0 (gone or another's).
     */
    Script renewScript();

    /** The key the renewal of this lease names (in the slot of every key of its name). */
    String renewKey(RedisLease lease);
}
