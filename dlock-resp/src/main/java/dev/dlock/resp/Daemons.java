package dev.dlock.resp;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Starts the transport's few platform daemon threads and paces reconnect attempts. */
final class Daemons {
    private static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long LAST_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private Daemons() {}

    static Thread start(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Sleeps before reconnect attempt {@code attempt} (0-based): {@link #backOffNanos}. */
    static void backOff(int attempt) {
        if (attempt > 0) {
            LockSupport.parkNanos(backOffNanos(attempt));
        }
    }

    /** The pause before attempt {@code attempt} (0-based): 0, 20, 40, 80 ms... up to 1 s. */
    static long backOffNanos(int attempt) {
        return attempt <= 0 ? 0 : Math.min(LAST_RETRY_NANOS, FIRST_RETRY_NANOS << Math.min(attempt - 1, 10));
    }
}
