package dev.dlock.internal.util;

import java.util.concurrent.atomic.AtomicBoolean;

/** Whether a client is still open: the one place that says so, with one message. Thread-safe. */
public final class Lifecycle {
    private final AtomicBoolean closed = new AtomicBoolean();
    private final String maskedUri;

    public Lifecycle(String maskedUri) {
        this.maskedUri = maskedUri;
    }

    public boolean isClosed() {
        return closed.get();
    }

    /** @throws IllegalStateException if the client is closed */
    public void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the LockClient for " + maskedUri + " is closed");
        }
    }

    /** Marks the client closed; true only for the first call. */
    public boolean close() {
        return closed.compareAndSet(false, true);
    }
}
