package dev.dlock.example;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** Two clients, four threads each, take turns on one lock; prints tokens and a verdict. */
public final class Example {
    private Example() {}

    /**
     * Runs the example against {@code DLOCK_REDIS_URL} (default {@code redis://127.0.0.1:6379}).
     *
     * @param args ignored
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        String uri = System.getenv().getOrDefault("DLOCK_REDIS_URL", "redis://127.0.0.1:6379");
        String name = "dlock-example-" + ProcessHandle.current().pid();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger acquisitions = new AtomicInteger();
        try (LockClient one = LockClient.connect(uri);
                LockClient two = LockClient.connect(uri)) {
            Thread[] threads = new Thread[8];
            for (int i = 0; i < threads.length; i++) {
                LockClient client = i % 2 == 0 ? one : two;
                String who = (i % 2 == 0 ? "client-1" : "client-2") + "/thread-" + i;
                threads[i] = new Thread(() -> {
                    for (int n = 0; n < 5; n++) {
                        try (Lease lease = client.lock(name).acquire()) {
                            if (inside.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            System.out.printf(
                                    "%-20s holds %s with fencing token %d%n", who, name, lease.fencingToken());
                            sleep(Duration.ofMillis(20));
                            inside.decrementAndGet();
                            acquisitions.incrementAndGet();
                        }
                    }
                });
                threads[i].start();
            }
            for (Thread t : threads) {
                t.join();
            }
        }
        System.out.printf(
                "%d acquisitions, %d overlaps: %s%n",
                acquisitions.get(), overlaps.get(), overlaps.get() == 0 ? "mutual exclusion held" : "VIOLATION");
        if (overlaps.get() != 0) {
            System.exit(1);
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
