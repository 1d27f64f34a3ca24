package dev.dlock.internal.util;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where one client's time and threads come from: its clock, its timer (watchdog rounds, wait timeouts and refreshes,
 * lease expiry) and the pools it makes on demand (the default callback pool, Redlock's connects). A client gets one
 * when it is made and passes it down; nothing else in {@code dev.dlock.internal} reads the system clock or makes a
 * thread ({@code ArchitectureTest} holds the code to that), so a test that gives a client a manual clock and a timer
 * of its own has all of the client's time in hand.
 *
 * <p>Thread-safe. The client shuts its timer down when it closes; pools made here are their caller's to shut down.
 */
public final class LockRuntime {
    private final Ticker ticker;
    private final ScheduledExecutorService timer;

    private LockRuntime(Ticker ticker, ScheduledExecutorService timer) {
        this.ticker = ticker;
        this.timer = timer;
    }

    /**
     * The real clock and a timer thread of the client's own (a daemon named {@code timerName}).
     *
     * @param timerName the timer thread's name, such as {@code dlock-timer-1f0c2a9b}
     * @return the runtime
     */
    public static LockRuntime system(String timerName) {
        return of(Ticker.SYSTEM, null, timerName);
    }

    /**
     * A given clock, and a given timer or (null) a timer thread of its own.
     *
     * @param ticker the clock every deadline and lease validity is read on
     * @param timerOrNull the timer to schedule on; null for one of the runtime's own
     * @param timerName the name of the runtime's own timer thread
     * @return the runtime
     */
    public static LockRuntime of(Ticker ticker, ScheduledExecutorService timerOrNull, String timerName) {
        if (timerOrNull != null) {
            return new LockRuntime(ticker, timerOrNull);
        }
        ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1, r -> daemon(r, timerName));
        own.setRemoveOnCancelPolicy(true);
        return new LockRuntime(ticker, own);
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

    /**
     * A pool of daemon threads made on demand and kept for a minute, named {@code namePrefix-1}, {@code
     * namePrefix-2}, ...: a task that blocks delays no other.
     *
     * @param namePrefix the threads' name before their number
     * @return the pool, which the caller shuts down
     */
    public ExecutorService newPool(String namePrefix) {
        AtomicLong n = new AtomicLong();
        return new ThreadPoolExecutor(
                0,
                Integer.MAX_VALUE,
                60,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                r -> daemon(r, namePrefix + "-" + n.incrementAndGet()));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
