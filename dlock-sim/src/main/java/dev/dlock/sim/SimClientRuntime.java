package dev.dlock.sim;

import dev.dlock.spi.ClientRuntime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * One simulated client's {@link ClientRuntime}: its own clock, which reads the world's time with an offset and a drift
 * of a few parts per million, and timers and executors whose tasks are events of the world's {@link EventLoop}. A task
 * handed to an executor runs as the next event, never inline, so a client's callback runs after the step that
 * completed it, as on a real pool. A caller's blocking wait ({@link #await}) hands the loop its turn: on a logical
 * caller thread ({@link CallerThreads}) it lasts until its future completes, its timeout passes on this clock, or the
 * loop interrupts the thread; on the loop's own thread it may only return what is done already.
 *
 * <p>Not thread-safe: like the loop, it is used by one thread at a time, the loop's or a caller's that has the turn.
 */
public final class SimClientRuntime implements ClientRuntime {
    private final EventLoop loop;
    private final long offset;
    private final double rate;
    private final String clientId;
    private final SplittableRandom random;

    /**
     * A runtime whose random choices are seeded from the client id.
     *
     * @param loop the world
     * @param offsetNanos what this clock reads when the world's time is 0
     * @param driftPpm how much faster (positive) or slower this clock runs, in parts per million
     * @param clientId the id the client gets ({@link #newClientId()})
     */
    public SimClientRuntime(EventLoop loop, long offsetNanos, double driftPpm, String clientId) {
        this(loop, offsetNanos, driftPpm, clientId, clientId.hashCode());
    }

    /**
     * @param loop the world
     * @param offsetNanos what this clock reads when the world's time is 0
     * @param driftPpm how much faster (positive) or slower this clock runs, in parts per million
     * @param clientId the id the client gets ({@link #newClientId()})
     * @param seed the seed of the client's random choices ({@link #random()})
     */
    public SimClientRuntime(EventLoop loop, long offsetNanos, double driftPpm, String clientId, long seed) {
        this.random = new SplittableRandom(seed);
        this.clientId = clientId;
        this.loop = loop;
        this.offset = offsetNanos;
        this.rate = 1 + driftPpm / 1_000_000;
    }

    private boolean inline;
    private CallerThreads callers; // null: no caller threads, every wait is on the loop's thread

    /**
     * Lets the client's blocking calls run on the logical caller threads of {@code threads}: their waits give the
     * loop its turn.
     *
     * @param threads the world's caller threads
     * @return this runtime
     */
    SimClientRuntime callers(CallerThreads threads) {
        this.callers = threads;
        return this;
    }

    /**
     * Waits for {@code future} by the simulation's rules: on a caller thread, the loop runs meanwhile, and a timed wait
     * ends when {@code timeoutNanos} have passed on this client's clock; on the loop's thread only a future already
     * done may be waited for.
     *
     * @throws IllegalStateException on the loop's thread, for a future not done
     */
    @Override
    public <T> T await(CompletableFuture<T> future, long timeoutNanos)
            throws InterruptedException, ExecutionException, TimeoutException {
        if (callers == null) {
            if (future.isDone()) {
                return future.get();
            }
            throw new IllegalStateException("a blocking wait on the simulation's loop thread would stop the world");
        }
        return callers.await(future, timeoutNanos, this);
    }

    @Override
    public long nanoTime() {
        return offset + (long) (loop.now() * rate);
    }

    /** A delay read on this clock, in the world's nanoseconds. */
    long worldDelay(long clientNanos) {
        return (long) Math.ceil(clientNanos / rate);
    }

    /**
     * Runs {@code build} with every task handed to this runtime's executors run at once, on the calling thread,
     * instead of as an event of the loop: for building a client whose build waits for tasks it hands to an executor
     * (a Redlock client connects its nodes on one and waits for them), which the loop cannot run while the build holds
     * its thread. Timers are not affected.
     *
     * @param build what to run
     * @param <T> what it makes
     * @return what it returns
     */
    public <T> T inline(Supplier<T> build) {
        inline = true;
        try {
            return build.get();
        } finally {
            inline = false;
        }
    }

    /** The client's random choices, from the seed it was given: one seed, one run. */
    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public String newClientId() {
        return clientId;
    }

    @Override
    public ScheduledExecutorService newTimer(String name) {
        return new Tasks(name);
    }

    @Override
    public ExecutorService newExecutor(String name) {
        return new Tasks(name);
    }

    /** A view of the loop that keeps its own tasks, so that shutting it down cancels those and no other. */
    final class Tasks extends AbstractExecutorService implements ScheduledExecutorService {
        private final String name;
        private final Set<Task<?>> live = new LinkedHashSet<>();
        private boolean shutdown;

        Tasks(String name) {
            this.name = name;
        }

        private <V> Task<V> start(Task<V> task, long delayNanos) {
            if (shutdown) {
                throw new RejectedExecutionException(name + " is shut down");
            }
            live.add(task);
            task.arm(delayNanos);
            return task;
        }

        @Override
        public void execute(Runnable command) {
            if (inline && !shutdown) {
                command.run();
                return;
            }
            start(new Task<>(this, Executors.callable(command, (Void) null), 0), 0);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            return start(new Task<>(this, Executors.callable(command, (Void) null), 0), unit.toNanos(delay));
        }

        @Override
        public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
            return start(new Task<>(this, callable, 0), unit.toNanos(delay));
        }

        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            return scheduleWithFixedDelay(command, initialDelay, period, unit); // no task here outlasts its period
        }

        @Override
        public ScheduledFuture<?> scheduleWithFixedDelay(
                Runnable command, long initialDelay, long delay, TimeUnit unit) {
            if (delay <= 0) {
                throw new IllegalArgumentException("delay must be positive, was " + delay);
            }
            return start(
                    new Task<>(this, Executors.callable(command, (Void) null), unit.toNanos(delay)),
                    unit.toNanos(initialDelay));
        }

        void finished(Task<?> task) {
            live.remove(task);
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            List<Runnable> never = new ArrayList<>();
            for (Task<?> t : List.copyOf(live)) {
                t.cancel(false);
                never.add(t::runNow);
            }
            return never;
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown && live.isEmpty();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return isTerminated(); // nothing runs meanwhile on the simulation's one thread
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** One task of a {@link Tasks}: an event of the loop, again after {@code period} if it has one. */
    final class Task<V> implements ScheduledFuture<V> {
        private final Tasks owner;
        private final Callable<V> body;
        private final long period;
        private EventLoop.Event event;
        private long dueClientNanos;
        private boolean cancelled;
        private boolean done;
        private V value;
        private Throwable failure;

        Task(Tasks owner, Callable<V> body, long period) {
            this.owner = owner;
            this.body = body;
            this.period = period;
        }

        void arm(long delayNanos) {
            dueClientNanos = nanoTime() + Math.max(0, delayNanos);
            event = loop.after(worldDelay(Math.max(0, delayNanos)), this::runNow);
        }

        void runNow() {
            if (cancelled || done) {
                return;
            }
            try {
                V v = body.call();
                if (period == 0) {
                    value = v;
                    done = true;
                }
            } catch (Throwable t) { // as a ScheduledThreadPoolExecutor: the failure ends the task and is kept
                failure = t;
                done = true;
            }
            if (done) {
                owner.finished(this);
            } else if (!owner.shutdown) {
                arm(period);
            } else {
                owner.finished(this);
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueClientNanos - nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            if (done || cancelled) {
                return false;
            }
            cancelled = true;
            if (event != null) {
                event.cancel();
            }
            owner.finished(this);
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return done || cancelled;
        }

        @Override
        public V get() throws ExecutionException {
            if (cancelled) {
                throw new CancellationException();
            }
            if (!done) {
                throw new IllegalStateException("waiting for a task would stop the simulation's one thread");
            }
            if (failure != null) {
                throw new ExecutionException(failure);
            }
            return value;
        }

        @Override
        public V get(long timeout, TimeUnit unit) throws ExecutionException, TimeoutException {
            return get();
        }
    }
}
