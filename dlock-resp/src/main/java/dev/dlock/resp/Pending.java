package dev.dlock.resp;

import java.util.concurrent.CompletableFuture;

/**
 * A command waiting for its reply: the future handed to the caller is the queue entry itself, so a
 * command allocates nothing else to be tracked. The timer completes it exceptionally at {@link
 * #deadline}; a late reply then finds it done and is discarded, which keeps replies aligned.
 */
abstract class Pending<T> extends CompletableFuture<T> {
    /** {@link System#nanoTime()} by which the command must have completed. */
    final long deadline;

    /** {@link System#nanoTime()} when the command was made, that is issued. */
    final long issued = System.nanoTime();

    Pending(long deadline) {
        this.deadline = deadline;
    }

    /** Completes exceptionally; overridden where other futures depend on this one. */
    void fail(Throwable failure) {
        completeExceptionally(failure);
    }

    boolean isOverdue(long now) {
        return now - deadline >= 0;
    }
}
