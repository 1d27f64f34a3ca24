package dev.dlock.internal.util;

import dev.dlock.spi.ClientRuntime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * Where one client's time and threads come from: its clock, its timer (watchdog rounds, wait timeouts and refreshes,
 * lease expiry) and the pools it makes on demand (the default callback pool, Redlock's connects), all from one
 * {@link ClientRuntime}, and how a caller's thread waits ({@link Await}): the application's ({@code LockClient.Builder.runtime}) or {@link #SYSTEM}. A client gets one
 * when it is made and passes it down; nothing else in {@code dev.dlock.internal} reads the system clock or makes a
 * thread ({@code ArchitectureTest} holds the code to that), so a client given a simulated runtime has all of its
 * time in hand.
 *
 * <p>Thread-safe. The client shuts its timer down when it closes; pools made here are their caller's to shut down.
 */
public final class LockRuntime {
    /** The system's monotonic clock, a timer thread per client and pools of daemon threads. */
    public static final ClientRuntime SYSTEM = new SystemRuntime();

    private final Ticker ticker;
    private final ScheduledExecutorService timer;
    private final ClientRuntime source;
    private final Await await;

    private LockRuntime(Ticker ticker, ScheduledExecutorService timer, ClientRuntime source) {
        this.ticker = ticker;
        this.timer = timer;
        this.source = source;
        this.await = source == SYSTEM ? Await.SYSTEM : new Await(source);
    }

    /**
     * The system's clock, and a timer thread of the client's own (a daemon named {@code timerName}).
     *
     * @param timerName the timer thread's name, such as {@code dlock-timer-1f0c2a9b}
     * @return the runtime
     */
    public static LockRuntime system(String timerName) {
        return of(SYSTEM, timerName);
    }

    /**
     * One client's share of {@code runtime}: its clock, a new timer and its pools.
     *
     * @param runtime the application's runtime, or {@link #SYSTEM}
     * @param timerName the name of the client's timer
     * @return the runtime
     */
    public static LockRuntime of(ClientRuntime runtime, String timerName) {
        Ticker ticker = runtime == SYSTEM ? Ticker.SYSTEM : runtime::nanoTime;
        return new LockRuntime(ticker, runtime.newTimer(timerName), runtime);
    }

    /**
     * A given clock, and a given timer or (null) a timer thread of its own; pools of the system's (unit tests that
     * move time by hand).
     *
     * @param ticker the clock every deadline and lease validity is read on
     * @param timerOrNull the timer to schedule on; null for one of the runtime's own
     * @param timerName the name of the runtime's own timer thread
     * @return the runtime
     */
    public static LockRuntime of(Ticker ticker, ScheduledExecutorService timerOrNull, String timerName) {
        return new LockRuntime(ticker, timerOrNull != null ? timerOrNull : SYSTEM.newTimer(timerName), SYSTEM);
    }

    /** The client's clock. */
    public Ticker ticker() {
        return ticker;
    }

    /** The client's clock now, in nanoseconds (monotonic; only differences mean anything). */
    public long nanos() {
        return ticker.nanos();
    }

    /** The client's timer. */
    public ScheduledExecutorService timer() {
        return timer;
    }

    /** How a caller's thread waits for the client's work ({@link ClientRuntime#await}). */
    public Await await() {
        return await;
    }

    /** The source of the client's random choices, for the calling thread ({@link ClientRuntime#random()}). */
    public RandomGenerator random() {
        return source.random();
    }

    /**
     * A pool for work that must not wait behind other work ({@link ClientRuntime#newExecutor}); of the system's: daemon
     * threads made on demand and kept for a minute, named {@code namePrefix-1}, {@code namePrefix-2}, ...
     *
     * @param namePrefix the threads' name before their number
     * @return the pool, which the caller shuts down
     */
    public ExecutorService newPool(String namePrefix) {
        return source.newExecutor(namePrefix);
    }

    /**
     * Fails {@code future} with a {@link TimeoutException} if it has not completed {@code millis} from now on the
     * client's clock: {@code CompletableFuture.orTimeout} on the client's timer, not on the JDK's own timer thread and
     * the system's clock. On a timer shut down (a closed client) the future keeps no deadline of its own; the
     * transport's command timeout still bounds it.
     *
     * @param future the future
     * @param millis the time it has
     * @return {@code future}
     */
    public <T> CompletableFuture<T> within(CompletableFuture<T> future, long millis) {
        if (future.isDone()) {
            return future;
        }
        try {
            ScheduledFuture<?> deadline = timer.schedule(
                    () -> future.completeExceptionally(new TimeoutException("no answer within " + millis + " ms")),
                    millis,
                    TimeUnit.MILLISECONDS);
            future.whenComplete((value, error) -> deadline.cancel(false));
        } catch (RejectedExecutionException e) {
            // closed: the transport's own timeout ends the wait
        }
        return future;
    }

    /** The default runtime: the only place in the client that reads the system clock and makes threads. */
    private static final class SystemRuntime implements ClientRuntime {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public ScheduledExecutorService newTimer(String name) {
            ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1, r -> daemon(r, name));
            own.setRemoveOnCancelPolicy(true);
            return own;
        }

        @Override
        public ExecutorService newExecutor(String name) {
            AtomicLong n = new AtomicLong();
            return new ThreadPoolExecutor(
                    0,
                    Integer.MAX_VALUE,
                    60,
                    TimeUnit.SECONDS,
                    new SynchronousQueue<>(),
                    r -> daemon(r, name + "-" + n.incrementAndGet()));
        }

        private static Thread daemon(Runnable r, String name) {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        }
    }
}
