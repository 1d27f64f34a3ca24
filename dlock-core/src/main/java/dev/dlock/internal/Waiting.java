package dev.dlock.internal;

import java.util.concurrent.CompletableFuture;

/** An acquire that waits in a {@link WaitRoom} (a mutex's {@link Acquisition} or a {@link PermitAcquisition}). */
interface Waiting {
    /**
     * Ends the wait because the client is closing: leaves the Redis queue (releasing what was granted
     * meanwhile) and fails the acquire.
     *
     * @return the leave's reply
     */
    CompletableFuture<Boolean> abortForClose();
}
