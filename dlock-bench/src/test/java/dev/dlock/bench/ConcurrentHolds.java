package dev.dlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** Eight threads that each take 2,000 holds at once, for the exclusion checks' tests; no Redis. */
final class ConcurrentHolds {
    private static final int THREADS = 8;
    private static final int HOLDS_PER_THREAD = 2_000;
    private static final long INSIDE_NANOS = 20_000;

    private ConcurrentHolds() {}

    /** One hold: lock, enter the check, {@link #stayInside()}, leave it, unlock; false if the check saw a violation. */
    interface Hold {
        boolean take(long id, ThreadLocalRandom random);
    }

    /**
     * Runs the holds, holder ids 1 to 8.
     *
     * @return the holds that saw a violation
     * @throws Exception if a thread threw, or has not finished within a minute
     */
    static long violations(Hold hold) throws Exception {
        LongAdder violations = new LongAdder();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 1; t <= THREADS; t++) {
                long id = t;
                workers.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < HOLDS_PER_THREAD; i++) {
                        if (!hold.take(id, random)) {
                            violations.increment();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS); // a worker's exception or hang fails the test here
            }
        } finally {
            pool.shutdownNow();
        }
        return violations.sum();
    }

    /** Spins for 20 µs inside the critical section, so that overlapping holds meet there. */
    static void stayInside() {
        long start = System.nanoTime();
        while (System.nanoTime() - start < INSIDE_NANOS) {
            Thread.onSpinWait();
        }
    }
}
