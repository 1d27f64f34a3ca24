package dev.dlock.internal.lease;

import dev.dlock.LockLostException;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Log;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The loss listeners ({@code onLost}) and the {@code whenLost()} future of one lease, made when first
 * asked for: most leases are released, never lost. Each listener runs exactly once, on the client's
 * callback executor, whoever gets to it first: the loss, or a registration that finds the lease lost
 * already. A listener that throws is logged and does not stop the others. Part of {@link LeaseState}.
 * Thread-safe.
 */
final class LossListeners {
    private final CopyOnWriteArrayList<Consumer<? super LockLostException>> pending = new CopyOnWriteArrayList<>();
    private final CompletableFuture<LockLostException> future = new CompletableFuture<>();
    private final Callbacks callbacks;

    LossListeners(Callbacks callbacks) {
        this.callbacks = callbacks;
    }

    /**
     * {@code Lease.onLost}: adds the listener, then reads the lease's loss; if it was lost already,
     * the listener runs now (exactly once, whichever of this and {@link #lost} gets to it).
     */
    void listen(Consumer<? super LockLostException> listener, Supplier<LockLostException> loss) {
        pending.add(listener);
        LockLostException seen = loss.get();
        if (seen != null) {
            runPending(seen);
        }
    }

    /**
     * {@code Lease.whenLost()}: a copy of the loss future, completed at once when the lease was lost
     * already ({@code seen}), so the caller's own thread runs what it chains on.
     */
    CompletableFuture<LockLostException> whenLost(LockLostException seen) {
        if (seen != null) {
            future.complete(seen);
        }
        return future.copy();
    }

    /** The lease was lost: completes the future and runs the listeners, on the callback executor. */
    void lost(LockLostException loss) {
        if (!future.isDone()) {
            callbacks.run(() -> future.complete(loss));
        }
        runPending(loss);
    }

    /** Runs the listeners nobody has run yet. */
    void runPending(LockLostException loss) {
        for (Consumer<? super LockLostException> listener : pending) {
            if (pending.remove(listener)) { // whoever removes a listener runs it, exactly once
                callbacks.run(() -> run(listener, loss));
            }
        }
    }

    private static void run(Consumer<? super LockLostException> listener, LockLostException loss) {
        try {
            listener.accept(loss);
        } catch (RuntimeException e) {
            // A listener's failure must not stop the others; the operator must see it.
            Log.LOG.log(
                    System.Logger.Level.WARNING,
                    "a loss listener of lock '" + loss.lockName() + "' (fencing token " + loss.fencingToken()
                            + ") threw",
                    e);
        }
    }
}
