package dev.dlock.internal;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids one client writes to Redis: its random client id, the owner id of each thread (for {@code
 * lock()}) and of each lease (for {@code acquire()}), and the wait ids that hand-off messages name.
 * Thread-safe.
 */
final class Owners {
    private final String clientId = UUID.randomUUID().toString();
    private final AtomicLong leaseIds = new AtomicLong();
    private final AtomicLong waitIds = new AtomicLong();
    private final ThreadLocal<String> threadOwner = ThreadLocal.withInitial(
            () -> clientId + ":thread-" + Thread.currentThread().getId());

    String clientId() {
        return clientId;
    }

    /** The owner id of the calling thread, built once per thread and client. */
    String thread() {
        return threadOwner.get();
    }

    String newLease() {
        return clientId + ":lease-" + leaseIds.incrementAndGet();
    }

    /** A new wait id, unique in this client: the hand-off message names it (WaitRoom). */
    String newWait() {
        return Long.toString(waitIds.incrementAndGet(), 36);
    }
}
