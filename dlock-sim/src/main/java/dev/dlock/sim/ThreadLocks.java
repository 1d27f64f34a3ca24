package dev.dlock.sim;

import dev.dlock.DistributedLock;
import dev.dlock.LockException;
import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The thread-owned holds of the {@link BlockingCallers}, through the {@link java.util.concurrent.locks.Lock} side of
 * the API: a mutex, a multi-lock of two overlapping mutex names, or a lock of the client's Redlock client, taken with
 * {@code lock()} (no end, uninterruptible: an interrupt is kept for its end), {@code lockInterruptibly()} (no end,
 * interrupted part way one time in three) or {@code tryLock(wait)} (interrupted part way one time in eight), re-entered
 * one time in four, held (the thread reads its view again every third of a lease) and given back with as many {@code
 * unlock()} calls. An acquire that returns leaves its thread a hold count of exactly 1, and one that ends without a
 * hold (busy, interrupted, the network's failure) a count of 0: a thread has one hold at a time. Each name's hold goes
 * into the run's {@link HoldBook} (a multi-lock's as one {@link Kind#MULTI} hold per name, a Redlock lock's as a
 * {@link Kind#REDLOCK} hold also checked by {@link RedlockFences}, as the asynchronous callers' are) through {@link
 * Simulation#held}. Not thread-safe: used by whichever thread has the turn.
 */
final class ThreadLocks {
    private static final long MS = 1_000_000;

    /** How a thread asks for a lock. */
    private enum Call {
        LOCK("lock()"),
        INTERRUPTIBLY("lockInterruptibly()"),
        TRY("tryLock");

        private final String label;

        Call(String label) {
            this.label = label;
        }
    }

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final SplittableRandom random;

    /**
     * @param run the run whose book, trace and counters the holds go to
     * @param config its config
     * @param loop its world
     * @param random the draws of the blocking callers
     */
    ThreadLocks(Simulation run, SimConfig config, EventLoop loop, SplittableRandom random) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.random = random;
    }

    /**
     * One thread-owned hold of {@code lock} ({@code kind}: {@link Kind#MUTEX}, {@link Kind#MULTI} or {@link
     * Kind#REDLOCK}) by caller {@code id} on {@code thread}, waiting up to {@code waitMs} if it tries; {@code then}
     * runs on the thread once it is over (nothing taken, or given back).
     */
    void take(CallerThreads.Caller thread, int id, Kind kind, DistributedLock lock, long waitMs, Runnable then) {
        int pick = random.nextInt(5);
        Call call = pick == 0 ? Call.LOCK : pick == 1 ? Call.INTERRUPTIBLY : Call.TRY;
        String what = "thread caller " + id + "'s " + call.label + " of " + kind + " " + lock.name();
        if (random.nextInt(call == Call.INTERRUPTIBLY ? 3 : 8) == 0) { // part way: lock() waits on, the others end
            thread.interrupt(random.nextLong(0, 200 * MS), thread.running());
        }
        long started = loop.now();
        run.acquireStarted();
        boolean got = false;
        int outcome = 0;
        try {
            got = switch (call) {
                case LOCK -> {
                    lock.lock();
                    yield true;
                }
                case INTERRUPTIBLY -> {
                    lock.lockInterruptibly();
                    yield true;
                }
                case TRY -> lock.tryLock(waitMs, TimeUnit.MILLISECONDS);
            };
        } catch (InterruptedException e) {
            outcome = 2;
        } catch (LockException e) { // the network's: a stall or a lost reply past the command timeout
            outcome = 3;
        } catch (RuntimeException e) {
            run.violation(what + " threw " + e);
            outcome = 9;
        } finally {
            run.acquireEnded(id, call.label + " of " + lock.name(), started, call == Call.TRY ? waitMs * MS : -1);
        }
        boolean flagged = Thread.interrupted(); // lock() keeps an interrupt for the end of its wait
        run.observe(id, 11, kind.ordinal(), call.ordinal(), got ? 1 : 0, outcome, flagged ? 1 : 0);
        if (call == Call.INTERRUPTIBLY) {
            run.count("lockInterruptibly " + (outcome == 2 ? "interrupted" : got ? "held" : "failed"));
        }
        int count = lock.getHoldCount();
        if (count != (got ? 1 : 0)) { // an acquire that ends without a hold must leave its thread none
            run.violation(what + (got ? " returned a hold" : " ended without one (outcome " + outcome + ")")
                    + ", and its thread's hold count is " + count);
        }
        if (!got) {
            then.run();
            return;
        }
        Duration remaining = lock.remaining();
        ThreadView view = new ThreadView(remaining);
        List<Hold> holds = new ArrayList<>();
        Map<String, Long> tokens = lock.fencingTokens();
        for (Map.Entry<String, Long> part : tokens.entrySet()) {
            Hold hold = new Hold(kind, part.getKey(), part.getValue(), view, id);
            views.put(part.getKey() + " " + part.getValue(), view);
            run.held(hold, remaining, config.leaseMillis(), what);
            holds.add(hold);
        }
        int held = 1;
        if (random.nextInt(4) == 0) { // a re-entry: one more count, no new hold
            try {
                lock.lock();
                held++;
            } catch (LockException e) { // its loss, or the network's when a re-entry renews first
                run.observe(id, 12);
            }
        }
        long holdFor = random.nextInt(4) == 0
                ? random.nextLong(0, 3 * config.leaseMillis())
                : random.nextLong(0, config.leaseMillis() / 4);
        holding(thread, id, lock, holds, view, held, loop.now() + holdFor * MS, then);
    }

    /**
     * While a thread holds a lock: its view of the hold read again every third of a lease (the watchdog renews it),
     * then its unlocks.
     */
    private void holding(
            CallerThreads.Caller thread,
            int id,
            DistributedLock lock,
            List<Hold> holds,
            ThreadView view,
            int count,
            long until,
            Runnable then) {
        long step = config.leaseMillis() * MS / 3;
        if (loop.now() + step < until) {
            thread.submit(step, () -> {
                view.update(lock.getHoldCount() > 0 ? lock.remaining() : Duration.ZERO);
                holding(thread, id, lock, holds, view, count, until, then);
            });
            return;
        }
        thread.submit(Math.max(0, until - loop.now()), () -> {
            for (Hold hold : holds) {
                run.book().released(hold);
                views.remove(hold.name() + " " + hold.token(), view);
            }
            int outcome = 0;
            for (int i = 0; i < count; i++) {
                try {
                    lock.unlock();
                } catch (LockException e) { // lost meanwhile (the network delayed renewals past a lease): allowed
                    outcome = 1;
                } catch (IllegalMonitorStateException e) {
                    run.violation("thread caller " + id + " held " + lock.name() + " " + count
                            + " times, and its unlock said: " + e.getMessage());
                }
            }
            run.observe(id, 13, outcome);
            then.run();
        });
    }

    /**
     * The client told its listeners that its hold of {@code name} with {@code token} was lost or expired: the thread's
     * view of it ends now, that of every name of its multi-lock with it (the client releases the other names at
     * once, and {@code remaining()} would answer zero from now on; the view, sampled every third of a lease, would
     * credit the thread with them until its last sample ran out).
     */
    void lost(String name, long token) {
        ThreadView view = views.get(name + " " + token);
        if (view != null) {
            view.update(Duration.ZERO);
        }
    }

    /**
     * A thread's view of its hold, read on its thread ({@code remaining()}, which only the holding thread may call)
     * when it was taken and every third of a lease since: valid until then plus what it had left, a little less (the
     * world's clock, not the client's, which may run 50 ppm faster), so the check never credits the holder with more
     * than it believes.
     */
    /** The views of the thread holds, by {@code "<name> <token>"} of each name. */
    private final Map<String, ThreadView> views = new java.util.HashMap<>();

    private final class ThreadView implements HoldBook.View {
        private long until;

        ThreadView(Duration remaining) {
            update(remaining);
        }

        void update(Duration remaining) {
            long left = remaining.toNanos();
            until = loop.now() + left - left / 10_000;
        }

        @Override
        public boolean isValid() {
            return loop.now() < until;
        }

        @Override
        public Duration remaining() {
            return Duration.ofNanos(Math.max(0, until - loop.now()));
        }
    }
}
