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
    private final AtomicLong threadIds = new AtomicLong();
    // Numbered in the order threads first take a lock through this client, not by Thread.getId(): the same
    // calls make the same ids, so that a simulated run repeats with its seed (the JVM numbers threads globally).
    private final ThreadLocal<String> threadOwner =
            ThreadLocal.withInitial(() -> clientId() + ":thread-" + threadIds.incrementAndGet());

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

    /**
     * The owner id of the calling thread, built once per thread and client: {@code <client id>:thread-<n>}, the
     * threads numbered from 1 in the order they first ask.
     */
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
