package dev.dlock.sim;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * The simulated world's time and its one queue of events: timers of every client, deliveries of commands, replies
 * and messages. One event runs at a time, on the thread that calls {@link #step()}; events due at the same instant
 * run in the order they were scheduled, so a run is a function of what was scheduled and nothing else. Time moves
 * only from one event to the next: nothing sleeps.
 *
 * <p>Not thread-safe: the simulation drives it from one thread, and everything it runs (the clients' code included)
 * runs on that thread.
 */
public final class EventLoop {
    private final PriorityQueue<Event> events = new PriorityQueue<>();
    private long now;
    private long seq;
    private long steps;

    /**
     * The time to the next event of a seeded process that happens {@code meanSeconds} apart on average, at random
     * (a Poisson process: the gap is exponential), in whole milliseconds.
     *
     * @param own the process's source
     * @param meanSeconds the mean gap
     * @return the gap in nanoseconds
     */
    static long gapNanos(java.util.SplittableRandom own, long meanSeconds) {
        return (long) (-Math.log(1 - own.nextDouble()) * meanSeconds * 1000) * 1_000_000;
    }

    /**
     * The world's time.
     *
     * @return nanoseconds since the simulation began
     */
    public long now() {
        return now;
    }

    /**
     * How many events have run.
     *
     * @return the steps so far
     */
    public long steps() {
        return steps;
    }

    /**
     * How many events are waiting, cancelled ones included.
     *
     * @return the events waiting
     */
    public int pending() {
        return events.size();
    }

    /**
     * Schedules {@code task} to run {@code delayNanos} from now (at once if not positive, after the events already due
     * now).
     *
     * @param delayNanos the delay in the world's nanoseconds
     * @param task what runs
     * @return the event, which can be cancelled
     */
    public Event after(long delayNanos, Runnable task) {
        Event e = new Event(now + Math.max(0, delayNanos), seq++, task);
        events.add(e);
        return e;
    }

    /**
     * Runs the next event that is not cancelled, moving time to it.
     *
     * @return false if there was none
     */
    public boolean step() {
        Event e;
        while ((e = events.poll()) != null) {
            if (!e.cancelled) {
                now = Math.max(now, e.due);
                steps++;
                e.done = true;
                e.task.run();
                return true;
            }
        }
        return false;
    }

    /**
     * Runs events until {@code done} holds, no event is left, or the world's time passes {@code maxNanos} from now.
     *
     * @param done what is waited for, asked before each step
     * @param maxNanos how far the world's time may move
     * @return whether {@code done} holds
     */
    public boolean runUntil(BooleanSupplier done, long maxNanos) {
        long until = now + maxNanos;
        while (!done.getAsBoolean()) {
            Event next = nextLive();
            if (next == null || next.due > until || !step()) {
                return done.getAsBoolean();
            }
        }
        return true;
    }

    /**
     * Runs events up to {@code nanos} from now and moves time there.
     *
     * @param nanos how far the world's time moves
     */
    public void runFor(long nanos) {
        long until = now + nanos;
        Event next;
        while ((next = nextLive()) != null && next.due <= until) {
            step();
        }
        now = Math.max(now, until);
    }

    /**
     * Moves the world's time {@code nanos} on with every waiting event moved as far, so nothing runs meanwhile: what
     * depends only on the world's time (a server's clock and its keys' expiry) moves on, and every timer and delivery
     * comes that much later, as if every process that waits on one were stopped for that long.
     *
     * @param nanos how far the world's time moves
     */
    public void suspend(long nanos) {
        for (Event e : events) {
            e.due += nanos; // the same for all: the queue's order stays as it is
        }
        now += nanos;
    }

    /** The next event that is not cancelled, left in place; cancelled ones before it are dropped. */
    private Event nextLive() {
        Event next;
        while ((next = events.peek()) != null && next.cancelled) {
            events.poll();
        }
        return next;
    }

    /** One scheduled task. */
    public static final class Event implements Comparable<Event> {
        long due;
        private final long seq;
        private final Runnable task;
        boolean cancelled;
        boolean done;

        private Event(long due, long seq, Runnable task) {
            this.due = due;
            this.seq = seq;
            this.task = task;
        }

        /** Keeps it from running, if it has not run yet. */
        public void cancel() {
            cancelled = true;
        }

        @Override
        public int compareTo(Event o) {
            int c = Long.compare(due, o.due);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
