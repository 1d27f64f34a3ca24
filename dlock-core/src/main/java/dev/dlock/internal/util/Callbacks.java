package dev.dlock.internal.util;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * Runs application code (asynchronous acquires' completions, loss listeners) off the transport's and
 * the timer's threads, on the executor the application gave or on the client's own pool; inline, with
 * a warning, if the executor refuses a task. Thread-safe.
 */
public final class Callbacks {
    private final Executor executor;
    private final ExecutorService own; // null when the application gave the executor
    private final Lifecycle lifecycle;
    private final Executor view = this::run; // one for every acquireAsync, not one each

    private Callbacks(Executor executor, ExecutorService own, Lifecycle lifecycle) {
        this.executor = executor;
        this.own = own;
        this.lifecycle = lifecycle;
    }

    /**
     * Callbacks on the given executor, or (null) on a pool of the client's own ({@link LockRuntime#newPool}): daemon
     * threads made on demand, so a callback that blocks delays neither the transport's I/O threads nor other
     * callbacks.
     */
    public static Callbacks on(Executor givenOrNull, LockRuntime runtime, String clientId, Lifecycle lifecycle) {
        if (givenOrNull != null) {
            return new Callbacks(givenOrNull, null, lifecycle);
        }
        ExecutorService pool = runtime.newPool("dlock-callback-" + clientId.substring(0, 8));
        return new Callbacks(pool, pool, lifecycle);
    }

    public void run(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            if (!(lifecycle.isClosed() && own != null)) { // our own pool refuses once closed: expected
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock's callback executor refused a task (" + e + "); running it on the calling thread");
            }
            task.run();
        }
    }

    /** This as an {@link Executor}, for {@code whenCompleteAsync}. */
    public Executor executor() {
        return view;
    }

    /**
     * A future completed on this executor with the outcome of {@code source}, its failure made by
     * {@code failure} (which may return the failure as it is): what an asynchronous call hands the
     * application, so that the stages it chains never run on the transport's threads.
     */
    public <T> CompletableFuture<T> relay(
            CompletableFuture<T> source, Function<? super Throwable, ? extends Throwable> failure) {
        CompletableFuture<T> relayed = new CompletableFuture<>();
        source.whenCompleteAsync(
                (value, error) -> {
                    if (error != null) {
                        relayed.completeExceptionally(failure.apply(error));
                    } else {
                        relayed.complete(value);
                    }
                },
                view);
        return relayed;
    }

    /** Shuts the client's own pool down (callbacks already handed to it still run); a given executor stays. */
    public void shutdown() {
        if (own != null) {
            own.shutdown();
        }
    }
}
