package dev.dlock.internal.util;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * How a client closes, the same for the client of one Redis and for Redlock's: once, whichever of {@code close()} and
 * {@code closeAsync()} comes first, it starts the releases of everything the client holds ({@code begin}); once they
 * are answered, or a bound on the client's clock has passed, it stops the client's timer, pools and connections
 * ({@code end}). {@code close()} waits for that; {@code closeAsync()} returns a future that completes after {@code
 * end} ran, on the callback executor. Releases not confirmed in time are logged: their locks expire with their
 * leases. Thread-safe.
 */
public final class ClientClose {
    private final LockRuntime runtime;
    private final Callbacks callbacks;
    private final long boundMillis;
    private final String client;
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private CompletableFuture<Void> releasing; // guarded by this

    /**
     * @param runtime the client's runtime, whose timer bounds the wait for the releases
     * @param callbacks where {@code closeAsync()}'s future completes
     * @param boundMillis how long the releases have
     * @param client the client as the warning names it, such as {@code dlock client 1f0c...}
     */
    public ClientClose(LockRuntime runtime, Callbacks callbacks, long boundMillis, String client) {
        this.runtime = runtime;
        this.callbacks = callbacks;
        this.boundMillis = boundMillis;
        this.client = client;
    }

    /** Closes and waits, at most about the bound, for the releases; then ends the client. */
    public void close(Supplier<List<CompletableFuture<?>>> begin, Runnable end) {
        runtime.await().replyOrNull(start(begin), boundMillis + 1000);
        end(end);
    }

    /** Closes without waiting: the future completes once the client has ended. */
    public CompletableFuture<Void> closeAsync(Supplier<List<CompletableFuture<?>>> begin, Runnable end) {
        start(begin).whenComplete((v, e) -> callbacks.run(() -> end(end)));
        return closed;
    }

    private synchronized CompletableFuture<Void> start(Supplier<List<CompletableFuture<?>>> begin) {
        if (releasing == null) {
            CompletableFuture<?>[] releases = begin.get().toArray(new CompletableFuture<?>[0]);
            releasing = runtime.within(CompletableFuture.allOf(releases), boundMillis)
                    .handle((v, e) -> {
                        if (e != null) {
                            Log.LOG.log(
                                    System.Logger.Level.WARNING,
                                    "{0} closed before Redis confirmed every release ({1}); the locks not released"
                                            + " expire at the end of their lease time",
                                    client,
                                    e.toString());
                        }
                        return null;
                    });
        }
        return releasing;
    }

    private void end(Runnable end) {
        if (ended.compareAndSet(false, true)) {
            try {
                end.run();
            } finally {
                closed.complete(null);
            }
        }
    }
}
