package dev.dlock.internal.wait;

import java.util.concurrent.CompletableFuture;

/** An acquire that waits in a {@link WaitRoom} (a mutex's or a permit's acquisition). */
public interface AbortableWait {
    /**
     * Ends the wait because the client is closing: leaves the Redis queue (releasing what was granted
     * meanwhile) and fails the acquire.
     *
     * @return the leave's reply
     */
    CompletableFuture<Boolean> abortForClose();
}
