package dev.dlock.internal.permit;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.Lease;
import dev.dlock.LockLostException;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.wait.AcquireContext;
import java.util.Objects;

/**
 * A read-write lock of one name (docs/lock-family.md): its two {@link ReadWriteView}s on the name's
 * shared-lock keys, and the downgrade of a write lease. Immutable and thread-safe.
 */
public final class RedisReadWriteLock implements DistributedReadWriteLock {
    private final ReadWriteView read;
    private final ReadWriteView write;

    public RedisReadWriteLock(
            SemaphoreKeys keys,
            AcquireContext acquirer,
            ThreadHolds holds,
            long leaseMillis,
            Callbacks callbacks,
            Lifecycle lifecycle) {
        this.read = new ReadWriteView(keys, false, acquirer, holds, leaseMillis, callbacks, lifecycle);
        this.write = new ReadWriteView(keys, true, acquirer, holds, leaseMillis, callbacks, lifecycle);
    }

    @Override
    public String name() {
        return read.name();
    }

    @Override
    public DistributedLock readLock() {
        return read;
    }

    @Override
    public DistributedLock writeLock() {
        return write;
    }

    @Override
    public Lease downgrade(Lease writeLease) {
        Objects.requireNonNull(writeLease, "writeLease");
        if (!(writeLease instanceof RedisLease lease)
                || !(lease.kind() instanceof ReadWriteView view)
                || !view.isWrite()
                || view.acquirer() != read.acquirer()
                || !view.keys().record().equals(read.keys().record())) {
            throw new IllegalArgumentException("writeLease must be a lease of the write lock of '" + name()
                    + "' taken through this client, was " + writeLease);
        }
        read.lifecycle().checkOpen();
        if (!lease.isHeld()) {
            throw new LockLostException(
                    name(),
                    lease.fencingToken(),
                    "the write lease is no longer held (released or lost); nothing was taken");
        }
        return read.beside(lease);
    }

    @Override
    public String toString() {
        return "DistributedReadWriteLock[" + name() + "]";
    }
}
