package dev.dlock.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The logical caller threads of one simulated world: real platform threads, for the blocking API ({@code lock()},
 * {@code tryLock}, {@code unlock()}, {@code tryAcquire(wait, leaseTime)}, {@code release()}), that take turns with the
 * loop's thread so that one thread runs at any moment and a run stays a function of its seed.
 *
 * <p>Protocol: the loop hands a caller its turn as an event ({@link Caller#submit}); the caller runs its task until
 * the task returns, or until the client makes it wait ({@link SimClientRuntime#await}, which comes here): the wait
 * arranges to be woken as an event of the loop (when its future completes, when its timeout passes on the client's
 * simulated clock, or when the loop interrupts the thread, {@link Caller#interrupt}) and gives the turn back to the
 * loop. Each hand-over is a pair of semaphores (which also makes everything one thread wrote visible to the next), so
 * the world's state is never touched by two threads at once. Nothing runs on a real timer: the only real time read is
 * a watchdog of {@value #WATCHDOG_SECONDS} s on a hand-over, which catches a caller that never gives its turn back
 * (blocked outside the runtime, or in an endless loop) and fails the run instead of hanging it.
 *
 * <p>Thread-safe in that sense only: the world is used by the thread that has the turn. {@link #close()} stops every
 * caller thread, also one in the middle of a wait (its wait throws {@link Stopped}).
 */
final class CallerThreads implements AutoCloseable {
    /** How long the loop waits by default, in real time, for a caller to give its turn back before it fails the run. */
    static final long WATCHDOG_SECONDS = 30;

    private final EventLoop loop;
    private final long watchdogMillis;
    private final Semaphore loopTurn = new Semaphore(0);
    private final List<Caller> callers = new ArrayList<>();
    private final ThreadLocal<Caller> current = new ThreadLocal<>();
    private String failure;

    /**
     * Caller threads of the world {@code loop}.
     *
     * @param loop the world
     */
    CallerThreads(EventLoop loop) {
        this(loop, TimeUnit.SECONDS.toMillis(WATCHDOG_SECONDS));
    }

    /**
     * Caller threads of the world {@code loop}, whose watchdog waits {@code watchdogMillis} of real time.
     *
     * @param loop the world
     * @param watchdogMillis how long a caller may keep its turn, in real time, before the run fails
     */
    CallerThreads(EventLoop loop, long watchdogMillis) {
        this.loop = loop;
        this.watchdogMillis = watchdogMillis;
    }

    /**
     * Starts a caller thread, idle until it is submitted a task.
     *
     * @param name its thread's name
     * @return the caller
     */
    Caller start(String name) {
        Caller c = new Caller(name);
        callers.add(c);
        c.thread.start();
        return c;
    }

    /**
     * The first failure of a caller (a task that threw, a caller that kept its turn past the watchdog), or null.
     *
     * @return the failure, described
     */
    String failure() {
        return failure;
    }

    /**
     * Waits for {@code future} as {@link SimClientRuntime#await} does: on a caller thread, by giving the turn back to
     * the loop until the future completes, the wait times out on {@code clock}, or the thread is interrupted.
     *
     * @throws IllegalStateException on a thread that is not a caller (the loop's) when the future is not done: the one
     *     thread that runs the world cannot wait for it
     */
    <T> T await(CompletableFuture<T> future, long timeoutNanos, SimClientRuntime clock)
            throws InterruptedException, ExecutionException, TimeoutException {
        Caller me = current.get();
        if (me == null) {
            if (future.isDone()) {
                return future.get();
            }
            throw new IllegalStateException("a blocking wait on the simulation's loop thread would stop the world");
        }
        return me.await(future, timeoutNanos, clock);
    }

    /** Stops every caller thread, also one in the middle of a wait; waits (in real time, bounded) for each to end. */
    @Override
    public void close() {
        for (Caller c : callers) {
            c.stop();
        }
        callers.clear();
    }

    private void fail(String what) {
        if (failure == null) {
            failure = what;
        }
    }

    /** Thrown by a wait of a caller whose world is closing: it unwinds the caller's task. */
    static final class Stopped extends Error {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("the simulation's caller threads are stopping", null, false, false);
        }
    }

    /** One logical caller thread. */
    final class Caller {
        private final Thread thread;
        private final Semaphore turn = new Semaphore(0);
        private Runnable task; // the task submitted and not begun, or null
        private long submitted; // tasks submitted so far; the number of the last
        private long running; // the number of the task under way, 0 if none
        private long waits; // waits begun, for wake-ups aimed at one
        private long waiting; // the wait under way, 0 if none
        private boolean timedOut; // the wait under way timed out
        private boolean stopping;
        private boolean exited;

        private Caller(String name) {
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
        }

        /**
         * Runs {@code task} on this thread, as an event {@code delayNanos} from now. A task may submit the next
         * one (while it has the turn); one task waits to begin at most.
         *
         * @return the task's number, for {@link #interrupt}
         * @throws IllegalStateException if a task is waiting to begin
         */
        long submit(long delayNanos, Runnable task) {
            if (this.task != null) {
                throw new IllegalStateException(thread.getName() + " has a task waiting already");
            }
            this.task = task;
            loop.after(delayNanos, this::handOver);
            return ++submitted;
        }

        /** Whether this caller's platform thread is still alive (until {@link CallerThreads#close()}). */
        boolean isAlive() {
            return thread.isAlive();
        }

        /** The number of the task under way on this thread (0 if none), for {@link #interrupt}. */
        long running() {
            return running;
        }

        /**
         * Interrupts this thread as an event {@code delayNanos} from now, if it runs task {@code number} then: a wait
         * under way sees the interrupt at once; else the task meets it at its next wait.
         */
        void interrupt(long delayNanos, long number) {
            loop.after(delayNanos, () -> {
                if (running != number || stopping) {
                    return; // not under way: the interrupt would hit another task
                }
                thread.interrupt();
                if (waiting != 0) {
                    handOver();
                }
            });
        }

        /** Gives this thread the turn and waits for it to come back: an event's work, on the loop's thread. */
        private void handOver() {
            if (exited || failure != null) {
                return;
            }
            turn.release();
            boolean back;
            try {
                back = loopTurn.tryAcquire(watchdogMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                back = false;
            }
            if (!back) {
                exited = true; // it runs on beside the loop: nothing more is handed to it
                fail(thread.getName() + " kept its turn for " + watchdogMillis + " ms of real time (blocked outside"
                        + " the client runtime's wait, or looping), at:\n  "
                        + Arrays.stream(thread.getStackTrace())
                                .map(String::valueOf)
                                .collect(Collectors.joining("\n  ")));
            }
        }

        private void run() {
            current.set(this);
            while (true) {
                turn.acquireUninterruptibly();
                if (stopping) {
                    break;
                }
                Runnable now = task;
                task = null;
                running = submitted;
                try {
                    now.run();
                } catch (Stopped e) {
                    break;
                } catch (Throwable t) {
                    fail(thread.getName() + " threw " + t + " at\n  "
                            + Arrays.stream(t.getStackTrace())
                                    .limit(12)
                                    .map(String::valueOf)
                                    .collect(Collectors.joining("\n  ")));
                }
                running = 0;
                Thread.interrupted(); // an interrupt aimed at this task ends with it
                if (stopping) {
                    break;
                }
                loopTurn.release();
            }
            exited = true;
            loopTurn.release();
        }

        <T> T await(CompletableFuture<T> future, long timeoutNanos, SimClientRuntime clock)
                throws InterruptedException, ExecutionException, TimeoutException {
            if (settled(future)) {
                return future.get();
            }
            long wait = ++waits;
            waiting = wait;
            timedOut = false;
            // Woken as an event, never from inside whatever completes the future.
            future.whenComplete((v, e) -> loop.after(0, () -> wake(wait)));
            EventLoop.Event timer = timeoutNanos == dev.dlock.spi.ClientRuntime.FOREVER
                    ? null
                    : loop.after(clock.worldDelay(timeoutNanos), () -> {
                        if (waiting == wait) {
                            timedOut = true;
                            wake(wait);
                        }
                    });
            try {
                while (true) {
                    loopTurn.release();
                    turn.acquireUninterruptibly();
                    if (settled(future)) {
                        return future.get();
                    }
                    if (timedOut) {
                        throw new TimeoutException("no answer within " + timeoutNanos / 1_000_000 + " ms");
                    }
                }
            } finally {
                waiting = 0;
                if (timer != null) {
                    timer.cancel();
                }
            }
        }

        /**
         * What a wait checks before it waits and each time it has the turn again, in this order: the world is
         * closing ({@link Stopped}), the future is done (true), the thread was interrupted.
         */
        private boolean settled(CompletableFuture<?> future) throws InterruptedException {
            if (stopping) {
                throw new Stopped();
            }
            if (future.isDone()) {
                return true;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            return false;
        }

        private void wake(long wait) {
            if (waiting == wait) {
                handOver();
            }
        }

        private void stop() {
            if (exited) {
                return;
            }
            stopping = true;
            turn.release();
            try {
                if (loopTurn.tryAcquire(watchdogMillis, TimeUnit.MILLISECONDS)) {
                    thread.join(watchdogMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
