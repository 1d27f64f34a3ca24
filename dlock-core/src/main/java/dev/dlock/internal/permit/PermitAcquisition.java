package dev.dlock.internal.permit;

import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.wait.AcquireContext;
import dev.dlock.internal.wait.QueuedAcquisition;
import java.util.concurrent.CompletableFuture;

/**
 * One acquire on the shared-lock model (semaphore permits, a read or write hold), run as the {@link
 * QueuedAcquisition} loop with its {@link PermitKind} as the target (docs/lock-family.md); each acquire
 * is one of its own (no line in the JVM). It is the loop's outcome and completes with it: the lease,
 * null when the wait ran out, or the failure.
 */
final class PermitAcquisition extends CompletableFuture<RedisLease> implements QueuedAcquisition.Outcome {
    private final QueuedAcquisition loop;

    PermitAcquisition(
            AcquireContext shared,
            PermitKind kind,
            String owner,
            String weight,
            String kindArg,
            long leaseMillis,
            boolean renewed,
            long waitNanos) {
        this.loop = new QueuedAcquisition(
                shared, kind, this, owner, leaseMillis, renewed, waitNanos, new String[] {weight, kindArg});
    }

    /** Starts the loop. */
    void start() {
        loop.start();
    }

    /** Gives up; this future settles once nothing taken by this acquire is left unreleased. */
    void giveUp() {
        loop.markCancelled();
    }

    @Override
    public void settle(RedisLease lease, RuntimeException failure) {
        if (failure == null) {
            complete(lease);
        } else {
            completeExceptionally(failure);
        }
    }
}
