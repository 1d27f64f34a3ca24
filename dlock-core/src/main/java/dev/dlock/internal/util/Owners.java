package dev.dlock.internal.util;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids one client writes to Redis: its random client id, the owner id of each thread (for {@code
 * lock()}) and of each lease (for {@code acquire()}), and the wait ids that hand-off messages name.
 * Thread-safe.
 */
public final class Owners {
    private final String clientId;
    private final AtomicLong leaseIds = new AtomicLong();
    private final AtomicLong waitIds = new AtomicLong();
    private final ThreadLocal<String> threadOwner = ThreadLocal.withInitial(
            () -> clientId() + ":thread-" + Thread.currentThread().getId());

    /**
     * The ids of a client whose id is {@code clientId}.
     *
     * @param clientId the client's id ({@code ClientRuntime.newClientId()}: a random UUID by default)
     * @throws IllegalArgumentException if it is not 8 to 36 letters, digits and {@code -}
     */
    public Owners(String clientId) {
        if (clientId == null || !clientId.matches("[A-Za-z0-9-]{8,36}")) {
            throw new IllegalArgumentException(
                    "ClientRuntime.newClientId() must make 8 to 36 letters, digits and '-', made " + clientId);
        }
        this.clientId = clientId;
    }

    public String clientId() {
        return clientId;
    }

    /** The owner id of the calling thread, built once per thread and client. */
    public String thread() {
        return threadOwner.get();
    }

    public String newLease() {
        return clientId + ":lease-" + leaseIds.incrementAndGet();
    }

    /** A new wait id, unique in this client: the hand-off message names it (WaitRoom). */
    public String newWait() {
        return Long.toString(waitIds.incrementAndGet(), 36);
    }
}
