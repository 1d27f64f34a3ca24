package dev.dlock.bench;

/** The measured window on the monotonic clock ({@link System#nanoTime()}), shared by every process on one host. */
record Window(long start, long end) {

    static Window after(long warmupMillis, long measureMillis) {
        long start = System.nanoTime() + warmupMillis * 1_000_000L;
        return new Window(start, start + measureMillis * 1_000_000L);
    }

    boolean contains(long nanos) {
        return nanos - start >= 0 && nanos - end < 0;
    }

    double seconds() {
        return (end - start) / 1e9;
    }

    static void sleepUntil(long nanos) {
        long left;
        while ((left = nanos - System.nanoTime()) > 0) {
            try {
                Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the window", e);
            }
        }
    }
}
