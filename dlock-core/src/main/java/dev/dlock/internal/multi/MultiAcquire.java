package dev.dlock.internal.multi;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.CallerChecked;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One asynchronous acquire of a multi-lock: each name's {@code acquireAsync} is started when the one
 * before it completed, in the names' order and within one deadline. The result completes with the
 * {@link MultiLease}, with null when a name stayed busy until the deadline, or exceptionally; in those
 * last two cases and on cancellation the names taken so far are released (owner-checked, on the
 * callback executor). Cancelling the result cancels the name's acquire in progress, which releases a
 * lock it takes concurrently. Before it completes with the lease, every part is checked by this
 * JVM's clock (held, and valid for at least half its lease: a name lost while a later one was waited
 * for fails it); if one fails, every name is released and the acquire starts over within its deadline.
 * Thread-safe: the steps run one at a time, and {@link #taken} and {@link #current} are guarded by this.
 */
public final class MultiAcquire {
    private final List<DistributedLock> locks;
    private final String label;
    private final Ticker ticker;
    private final long deadline;
    private final Callbacks callbacks;
    private final CompletableFuture<Lease> result = new CompletableFuture<>();
    private final List<Lease> taken = new ArrayList<>(); // guarded by this
    private CompletableFuture<Lease> current; // guarded by this
    private final boolean checkParts; // off only for the negative control Controls.Control.MULTI_LOST_PART

    MultiAcquire(
            List<DistributedLock> locks,
            String label,
            Ticker ticker,
            long deadline,
            Callbacks callbacks,
            boolean checkParts) {
        this.ticker = ticker;
        this.checkParts = checkParts;
        this.locks = locks;
        this.label = label;
        this.deadline = deadline;
        this.callbacks = callbacks;
    }

    CompletableFuture<Lease> start() {
        result.whenComplete((lease, error) -> {
            if (error instanceof CancellationException) {
                CompletableFuture<Lease> inFlight;
                synchronized (this) {
                    inFlight = current;
                }
                if (inFlight != null) {
                    inFlight.cancel(false);
                }
                releaseTaken();
            }
        });
        step(0);
        return result;
    }

    private void step(int index) {
        if (index == locks.size()) {
            List<Lease> all;
            synchronized (this) {
                all = List.copyOf(taken);
            }
            if (checkParts && !allValidForHalf(all)) {
                releaseTaken();
                if (deadline - ticker.nanos() > 0) {
                    step(0); // start over: the lost name is taken again through its queue
                } else {
                    result.complete(null);
                }
                return;
            }
            MultiLease multi = new MultiLease(label, all, callbacks);
            if (!result.complete(multi)) {
                callbacks.run(() -> MultiLease.releaseQuietly(all)); // cancelled meanwhile
            }
            return;
        }
        CompletableFuture<Lease> next;
        try {
            long left = Math.max(0, deadline - ticker.nanos());
            next = locks.get(index).acquireAsync(Duration.ofNanos(left));
        } catch (RuntimeException e) {
            fail(e); // the client was closed meanwhile
            return;
        }
        synchronized (this) {
            current = next;
        }
        if (result.isDone()) {
            next.cancel(false); // cancelled while this step started; the name's acquire releases what it takes
        }
        next.whenComplete((lease, error) -> {
            if (error != null) {
                fail(error instanceof CompletionException && error.getCause() != null ? error.getCause() : error);
            } else if (lease == null) {
                releaseTaken();
                result.complete(null);
            } else {
                synchronized (this) {
                    taken.add(lease);
                }
                if (result.isDone()) {
                    releaseTaken(); // cancelled meanwhile
                } else {
                    step(index + 1);
                }
            }
        });
    }

    private static boolean allValidForHalf(List<Lease> parts) {
        for (Lease part : parts) {
            if (part instanceof CallerChecked checked ? !checked.validForHalfNow() : !part.isValid()) {
                Log.LOG.log(
                        System.Logger.Level.INFO,
                        "dlock: ''{0}'' of a multi-lock was lost or ran low while a later name was waited for;"
                                + " every name is released and the acquire starts over",
                        part.lockName());
                return false;
            }
        }
        return true;
    }

    private void fail(Throwable error) {
        releaseTaken();
        result.completeExceptionally(error);
    }

    private void releaseTaken() {
        List<Lease> all;
        synchronized (this) {
            all = List.copyOf(taken);
            taken.clear();
        }
        if (!all.isEmpty()) {
            callbacks.run(() -> MultiLease.releaseQuietly(all));
        }
    }
}
