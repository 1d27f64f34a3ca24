package dev.dlock.spi;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.random.RandomGenerator;

/**
 * Where a client's time and threads come from: the clock every deadline and lease validity is read on,
 * the timer of its watchdog rounds, wait timeouts and lease expiries, the executors it makes (the
 * default callback pool, Redlock's connects), and how a caller's thread waits in a blocking call
 * ({@link #await}). Given to {@code LockClient.Builder.runtime}; by default a
 * client uses the system's monotonic clock, a timer thread of its own and pools of daemon threads.
 *
 * <p>A runtime of one's own is for running clients on a simulated clock, as dlock's deterministic
 * simulation does (a whole client on one thread, time moved by hand, no real sleep), or on threads an
 * application manages. The transport is separate ({@link TransportFactory}): its I/O threads and command
 * timeouts are its own. No class of dlock but {@code dev.dlock.internal.util.LockRuntime}, which wraps
 * this, reads the system clock or makes a thread (an architecture test holds the code to that).
 *
 * <p>Implementations must be thread-safe when the client is used from several threads; a runtime for a
 * single-threaded simulation needs only be as thread-safe as the simulation.
 */
public interface ClientRuntime {

    /**
     * The clock's reading in nanoseconds: monotonic, only differences between readings mean anything,
     * as {@link System#nanoTime()}.
     *
     * @return the reading
     */
    long nanoTime();

    /**
     * Makes the timer of one client, called once when the client is built. The client schedules
     * one-shot and fixed-delay tasks on it (delays read on {@link #nanoTime()}'s clock) and shuts it
     * down ({@code shutdownNow}) when it closes: a timer shared by several clients must be handed out as
     * a separate view per call, whose shutdown cancels only that view's tasks.
     *
     * @param name a name for its thread, such as {@code dlock-timer-1f0c2a9b}
     * @return a new timer, the client's to shut down
     */
    ScheduledExecutorService newTimer(String name);

    /**
     * Makes an executor for work that must not wait behind other work, such as the default callback
     * pool (when no {@code callbackExecutor} is set) and the connects of Redlock's nodes. The client
     * shuts it down when it closes.
     *
     * @param name a prefix for its threads' names, such as {@code dlock-callback-1f0c2a9b}
     * @return a new executor, the client's to shut down
     */
    ExecutorService newExecutor(String name);

    /**
     * Makes the id of a new client, the prefix of every owner id it writes to Redis: unique among the clients of one
     * Redis. By default a random UUID; a simulation gives ids drawn from its seed, so that one seed repeats one run.
     *
     * @return a new client id: 8 to 36 letters, digits and {@code -}
     */
    default String newClientId() {
        return UUID.randomUUID().toString();
    }

    /**
     * The source of the client's random choices (the jitter of Redlock's retry back-off), asked each time one is
     * made, on whatever thread makes it. By default the calling thread's {@link ThreadLocalRandom}; a simulation
     * gives a generator seeded from its run, so that one seed repeats one run.
     *
     * @return a random generator for the calling thread
     */
    default RandomGenerator random() {
        return ThreadLocalRandom.current();
    }

    /** A wait of {@link #await} without end. */
    long FOREVER = Long.MAX_VALUE;

    /**
     * Blocks the calling thread (an application's, in a blocking call such as {@code lock()}, {@code
     * tryAcquire} or {@code release()}) until {@code future} completes or {@code timeoutNanos} pass on
     * this runtime's clock, and returns its value. Every wait of a caller's thread for the client's own
     * work goes through here. By default {@code future.get()}, or {@code future.get(timeoutNanos,
     * NANOSECONDS)} on the system's clock; a simulation lets another thread run meanwhile and times the
     * wait out on its own clock.
     *
     * <p>Called from any thread that uses the client, several at once: an implementation must be
     * thread-safe where the client is used from several threads.
     *
     * @param future what is waited for
     * @param timeoutNanos the longest wait, or {@link #FOREVER}
     * @param <T> the future's value
     * @return the future's value
     * @throws InterruptedException if the thread is interrupted while it waits (or was on entry); the
     *     interrupt flag is then clear
     * @throws ExecutionException if the future failed
     * @throws java.util.concurrent.CancellationException if the future was cancelled
     * @throws TimeoutException if it did not complete in time
     */
    default <T> T await(CompletableFuture<T> future, long timeoutNanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        return timeoutNanos == FOREVER ? future.get() : future.get(timeoutNanos, TimeUnit.NANOSECONDS);
    }
}
