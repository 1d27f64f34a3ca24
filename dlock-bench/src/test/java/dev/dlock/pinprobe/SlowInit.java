package dev.dlock.pinprobe;

/**
 * Test code in a {@code dev.dlock} package outside the benchmark, so that W15's recording counts what it pins as
 * pinned "in dlock": its class initializer sleeps, and a virtual thread that blocks inside a class initializer pins its
 * carrier on every JDK so far (25 included).
 */
public final class SlowInit {
    static {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SlowInit() {}

    /** Initializes the class, on the calling thread. */
    public static void touch() {
        // the class initializer above runs on the first call
    }
}
