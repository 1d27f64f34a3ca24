package dev.dlock.internal.testing;

import dev.dlock.internal.util.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scheduler and its clock, moved by hand: {@link #advance} runs every task that falls due, in due
 * order, on the calling thread, with the clock set to each task's due time. One test thread drives
 * it; tasks may schedule further tasks.
 */
public final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final PriorityQueue<Task<?>> tasks =
            new PriorityQueue<>(Comparator.comparingLong((Task<?> t) -> t.due).thenComparingLong(t -> t.seq));
    private long seq;
    private boolean shutdown;

    /** The clock the client reads. */
    public Ticker ticker() {
        return now::get;
    }

    long nanos() {
        return now.get();
    }

    /** Moves the clock forward by {@code millis}, running what falls due on the way. */
    public synchronized void advance(long millis) {
        long until = now.get() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!tasks.isEmpty() && tasks.peek().due <= until) {
            Task<?> next = tasks.poll();
            now.set(Math.max(now.get(), next.due));
            next.runAndReschedule();
        }
        now.set(until);
    }

    /** The tasks waiting, for assertions. */
    public synchronized int pending() {
        return (int) tasks.stream().filter(t -> !t.isCancelled()).count();
    }

    private synchronized <V> Task<V> add(Task<V> task) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("shut down");
        }
        task.seq = seq++;
        tasks.add(task);
        return task;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return add(new Task<Void>(command, null, now.get() + unit.toNanos(delay), 0));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return add(new Task<>(callable, now.get() + unit.toNanos(delay)));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return scheduleWithFixedDelay(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return add(new Task<Void>(command, null, now.get() + unit.toNanos(initialDelay), unit.toNanos(delay)));
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = new ArrayList<>(tasks);
        tasks.clear();
        return left;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }

    private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
        private long due;
        private final long period;
        private long seq;

        Task(Runnable runnable, V result, long due, long period) {
            super(runnable, result);
            this.due = due;
            this.period = period;
        }

        Task(Callable<V> callable, long due) {
            super(callable);
            this.due = due;
            this.period = 0;
        }

        void runAndReschedule() {
            if (period == 0) {
                run();
            } else if (runAndReset()) {
                due = now.get() + period;
                add(this);
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - now.get(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }
    }
}
