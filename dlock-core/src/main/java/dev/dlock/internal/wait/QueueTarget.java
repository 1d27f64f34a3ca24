package dev.dlock.internal.wait;

import dev.dlock.LockException;
import dev.dlock.internal.lease.LeaseKind;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.spi.Replicated;
import java.util.concurrent.CompletableFuture;

/**
 * What a {@link QueuedAcquisition} acquires: one kind of lock on one name, as the loop needs it. It
 * says what a try sends and how to read a busy reply; a hold taken is opened as a lease of this kind
 * (it is its leases' {@link LeaseKind}), and given back with its owner-checked release. The mutex's is
 * the name's {@code NameRelay}; the shared-lock model's are its kinds ({@code PermitKind}: the
 * semaphore, the read-write lock's two views). One object serves every acquire of its name: it holds
 * nothing of one acquire, so an acquire allocates nothing for it. Implementations are thread-safe.
 */
public interface QueueTarget extends LeaseKind {
    /**
     * The keys of the name: failures name its lock key, and waiters listen on {@code channel():<client
     * id>}.
     */
    LockKeys lockKeys();

    /**
     * Sends one try of the kind's acquire script over the name's keys. {@code args}: owner id, lease
     * time, mode, queue entry lifetime; then the try's wait id ({@code <wait id>.<try>}, or {@code -}
     * when not queueing), sent when queueing or when the kind has arguments of its own, and those.
     *
     * @return the script's reply (a token when taken, else 0 or less), with its replication
     */
    CompletableFuture<Replicated> send(String[] args);

    /** What is being acquired, for messages: {@code 'x'}, {@code semaphore 'x'}... */
    String describe();

    /** The same, after "the LockClient was closed while waiting for". */
    default String waitingFor() {
        return describe();
    }

    /**
     * Reads a reply that did not take the hold (0 or less): how long it lets the loop sleep before it
     * tries again, before the refresh and deadline caps.
     *
     * @param refreshNanos the acquire's queue entry refresh interval
     * @throws LockException the acquire's failure when the reply refuses it for good (where the kind
     *     has such a reply)
     */
    long busySleepNanos(long reply, long refreshNanos);

    /**
     * Why a hold an acquire that was not cancelled has just taken must be given back (a client closed
     * meanwhile, where the kind refuses it); null to keep it.
     */
    default RuntimeException refuseTaken() {
        return null;
    }

    /** The owner-checked release of an owner's hold and queue entry. */
    CompletableFuture<Boolean> release(String owner);

    /** The same, for an acquire whose outcome in Redis is unknown: must not throw, logs what it cannot undo. */
    void undoUnknown(String owner);
}
