package dev.dlock.internal.permit;

import dev.dlock.Lease;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.ValidHoldWait;
import dev.dlock.internal.wait.AcquireContext;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;

/**
 * How a caller waits for a {@link PermitAcquisition}, shared by every kind on the shared-lock model
 * (the semaphore, the read-write lock's views): blocking, interruptibly or not, or as a future that
 * completes on the callback executor. An interrupted or cancelled acquire leaves nothing behind: what it
 * was granted meanwhile is released. Stateless; thread-safe.
 */
final class PermitWaits {
    private PermitWaits() {}

    /** Starts one acquire of {@code weight} for a new {@code owner}. */
    static PermitAcquisition start(
            AcquireContext acquirer,
            PermitKind kind,
            String owner,
            String weight,
            String kindArg,
            long leaseMillis,
            boolean renewed,
            long waitNanos) {
        PermitAcquisition acquisition =
                new PermitAcquisition(acquirer, kind, owner, weight, kindArg, leaseMillis, renewed, waitNanos);
        Events events = acquirer.leases.events();
        if (events.enabled()) { // as NameRelays reports the mutex's: the outcome as the caller sees it, and the wait
            long begun = acquirer.ticker.nanos();
            acquisition.whenComplete((lease, error) ->
                    events.acquire(kind.keys().name(), Events.outcome(lease, error), acquirer.ticker.nanos() - begun));
        }
        acquisition.start();
        return acquisition;
    }

    /**
     * Runs acquires started by {@code start} (given the wait left) and waits for them: a lease valid for
     * half its lease time as this thread sees it ({@link ValidHoldWait}), or null when the wait ran out. An
     * interrupt gives it up (when {@code interruptible}; otherwise it is remembered and the interrupt flag
     * set again at the end).
     *
     * @throws InterruptedException if interrupted while an interruptible wait was on
     */
    static RedisLease await(
            AcquireContext acquirer,
            LongFunction<PermitAcquisition> start,
            long waitNanos,
            String key,
            boolean interruptible)
            throws InterruptedException {
        return ValidHoldWait.await(
                acquirer.ticker,
                acquirer.checkValidity,
                waitNanos,
                wait -> awaitOne(acquirer, start.apply(wait), key, interruptible));
    }

    private static RedisLease awaitOne(
            AcquireContext acquirer, PermitAcquisition acquisition, String key, boolean interruptible)
            throws InterruptedException {
        return acquirer.scripts
                .waits()
                .acquire(
                        acquisition,
                        interruptible,
                        result -> {
                            acquisition.giveUp();
                            settleCancelled(acquirer, acquisition);
                        },
                        error -> acquirer.scripts.translate(error, key));
    }

    private static void settleCancelled(AcquireContext acquirer, PermitAcquisition acquisition) {
        RedisLease won;
        try {
            won = acquirer.scripts
                    .waits()
                    .replyOrNull(acquisition, acquirer.scripts.commandTimeout().toMillis() + 1000);
        } catch (CancellationException e) {
            won = null; // given up without a hold
        }
        // Null also if its command never answered or failed: a hold it might have taken ends with its lease.
        if (won != null) {
            won.releaseQuietly();
        }
    }

    /**
     * The future of an acquire, completed on the callback executor (the application's stages never run
     * on the transport's threads); cancelling it gives the acquire up.
     */
    static CompletableFuture<Lease> async(
            AcquireContext acquirer, Callbacks callbacks, PermitAcquisition acquisition, String key) {
        CompletableFuture<Lease> future = new CompletableFuture<>();
        acquisition.whenCompleteAsync(
                (lease, error) -> {
                    if (error != null) {
                        future.completeExceptionally(acquirer.scripts.translate(error, key));
                    } else if (!future.complete(lease) && lease != null) {
                        lease.releaseQuietly(); // the caller cancelled meanwhile
                    }
                },
                callbacks.executor());
        future.whenComplete((lease, error) -> {
            if (error instanceof CancellationException) {
                acquisition.giveUp();
            }
        });
        return future;
    }
}
