package dev.dlock.internal.permit;

import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.wait.AcquireContext;
import dev.dlock.internal.wait.QueuedAcquisition;
import dev.dlock.spi.Replicated;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One acquire on the shared-lock model (semaphore permits, a read or write hold), run as the {@link
 * QueuedAcquisition} loop over its kind's acquire script (docs/lock-family.md); each acquire is one of
 * its own (no line in the JVM). A busy reply says how long until the earliest holder's lease may run
 * out; a reply of 0 refuses for good (a read hold to be taken beside a write hold that is gone). Its
 * outcome is {@link #result()}.
 */
public final class PermitAcquisition extends QueuedAcquisition {
    private final PermitKind kind;
    private final SemaphoreKeys keys;
    private final String permits;
    private final String kindArg;
    private final CompletableFuture<RedisLease> result = new CompletableFuture<>();

    PermitAcquisition(
            AcquireContext shared,
            PermitKind kind,
            String owner,
            String weight,
            String kindArg,
            long leaseMillis,
            boolean renewed,
            long waitNanos) {
        super(shared, owner, leaseMillis, renewed, waitNanos);
        this.kind = kind;
        this.keys = kind.keys();
        this.permits = weight;
        this.kindArg = kindArg;
    }

    /** The outcome: the lease, null when the wait ran out, or the failure. */
    CompletableFuture<RedisLease> result() {
        return result;
    }

    /** Gives up; {@link #result()} settles once nothing taken by this acquire is left unreleased. */
    void cancel() {
        markCancelled();
    }

    @Override
    protected CompletableFuture<Replicated> send(String mode, String waitId) {
        String[] args = {owner, leaseArg, mode, entryArg, waitId, permits, kindArg};
        return shared.scripts.evalGranting(kind.acquireScript(), keys.scriptKeys(), args);
    }

    @Override
    protected String key() {
        return keys.record();
    }

    @Override
    protected String channelBase() {
        return keys.lock().channel();
    }

    @Override
    protected String describe() {
        return kind.describe();
    }

    @Override
    protected String waitingFor() {
        return kind.describe();
    }

    @Override
    protected boolean refusedForGood(long reply) {
        return reply == 0;
    }

    @Override
    protected RuntimeException refusal() {
        return new LockLostException(keys.name(), 0, "the hold this acquire was to be taken beside is gone");
    }

    /** {@code reply}: {@code -2 - ms to the earliest holder's expiry}, -1 when none holds (a queue ahead). */
    @Override
    protected long busySleepNanos(long reply) {
        long untilExpiry = -2 - reply;
        return untilExpiry >= 0 ? TimeUnit.MILLISECONDS.toNanos(untilExpiry) + 1_000_000L : refreshNanos;
    }

    @Override
    protected RedisLease open(long token, long sentAt) {
        return shared.leases.open(keys.lock(), owner, token, leaseMillis, renewed, sentAt, kind);
    }

    @Override
    protected Throwable refuseTaken() {
        if (cancelled) {
            return cancellation();
        }
        return kind.lifecycle().isClosed() ? new LockException("the LockClient was closed") : null;
    }

    @Override
    protected CompletableFuture<Boolean> releaseOwn() {
        return kind.release(owner);
    }

    @Override
    protected void undoUnknown() {
        kind.release(owner).whenComplete((ok, e) -> {
            if (e != null) {
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock could not undo an acquire of {0} whose outcome is unknown ({1}); a hold"
                                + " it took or its queue entry ends when their lease or entry runs out",
                        keys.record(),
                        e.toString());
            }
        });
    }

    @Override
    protected void settle(RedisLease lease, RuntimeException failure) {
        if (failure == null) {
            result.complete(lease);
        } else {
            result.completeExceptionally(failure);
        }
    }
}
