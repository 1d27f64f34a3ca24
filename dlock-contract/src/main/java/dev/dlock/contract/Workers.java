package dev.dlock.contract;

import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test's worker threads and makes what happens to them the test's outcome: a worker that
 * throws fails the test with that exception (its stack as the cause), and one that has not finished
 * in time fails it with the worker's name and the stack it is stuck at. Public for the transports'
 * own tests too.
 */
public final class Workers {
    private Workers() {}

    /** One worker's work. */
    @FunctionalInterface
    public interface Work {
        /**
         * Does the work of one worker.
         *
         * @param worker which worker this is, numbered from 0
         * @throws Exception to fail the test with it
         */
        void run(int worker) throws Exception;
    }

    /**
     * Starts {@code count} threads named {@code name-0 … name-(count-1)} and waits for all of them.
     *
     * @param name the threads' name prefix, as failures name them
     * @param count how many workers
     * @param timeout how long all of them may take together, scaled by {@link Timing}
     * @param work what each worker does
     * @throws AssertionError if a worker threw or did not finish in time (stuck ones are interrupted)
     * @throws InterruptedException if the test thread is interrupted while waiting
     */
    public static void run(String name, int count, Duration timeout, Work work) throws InterruptedException {
        Thread[] threads = new Thread[count];
        Throwable[] failures = new Throwable[count]; // written before the thread ends, read after join
        for (int i = 0; i < count; i++) {
            int worker = i;
            threads[i] = new Thread(
                    () -> {
                        try {
                            work.run(worker);
                        } catch (Throwable t) {
                            failures[worker] = t;
                        }
                    },
                    name + "-" + i);
            threads[i].setDaemon(true); // a stuck worker must not keep the test JVM alive
        }
        for (Thread t : threads) {
            t.start();
        }
        long deadline = System.nanoTime() + Timing.scaled(timeout).toNanos();
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        AssertionError error = null;
        for (int i = 0; i < count; i++) {
            AssertionError e = null;
            if (threads[i].isAlive()) {
                e = new AssertionError("worker " + threads[i].getName() + " did not finish within "
                        + Timing.scaled(timeout) + "; the stack trace is where it is stuck");
                e.setStackTrace(threads[i].getStackTrace());
                threads[i].interrupt();
            } else if (failures[i] != null) {
                e = new AssertionError("worker " + threads[i].getName() + " failed: " + failures[i], failures[i]);
            }
            if (e != null && error == null) {
                error = e;
            } else if (e != null) {
                error.addSuppressed(e);
            }
        }
        if (error != null) {
            throw error;
        }
    }
}
