package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongConsumer;

/**
 * Weeks in which nothing happens but the server's clock, so that keys living 7 idle days expire under holds of longer
 * fixed leases (what {@code lost-set-permits} gets wrong). A caller asks for one ({@link #request}); the callers then
 * start nothing new until every acquire has completed and every hold left is a lease of days, 6 s more pass (queue
 * entries live at most 5 s, what is on its way lands), and the world's time moves 7 days and 1 to 12 hours on at once,
 * every timer and delivery with it ({@link EventLoop#suspend}): as if every client process were stopped for that long.
 * 7 days of the clients' watchdog ticks alone would cost some 11 million steps; a week costs about 500. Not
 * thread-safe: used by whichever thread has the turn.
 */
final class SuspendedWeeks {
    private static final long MS = 1_000_000;
    private static final long DAY = 24 * 3600_000 * MS;
    /** At most one week per this much world time between them. */
    static final long EVERY = 120_000 * MS;

    private final EventLoop loop;
    private final HoldBook book;
    private final SplittableRandom random;
    private final IntSupplier acquiring;
    private final BooleanSupplier draining;
    private final LongConsumer observe;
    private final List<Runnable> deferred = new ArrayList<>();
    private boolean pausing;
    private long passed;
    private long endedAt = Long.MIN_VALUE / 2;

    /**
     * @param loop the run's world
     * @param book its holds
     * @param random the run's draws
     * @param acquiring how many acquires are under way
     * @param draining whether the run is ending
     * @param observe where a week goes in the run's trace
     */
    SuspendedWeeks(
            EventLoop loop,
            HoldBook book,
            SplittableRandom random,
            IntSupplier acquiring,
            BooleanSupplier draining,
            LongConsumer observe) {
        this.loop = loop;
        this.book = book;
        this.random = random;
        this.acquiring = acquiring;
        this.draining = draining;
        this.observe = observe;
    }

    /** Whether a week is coming: callers start nothing new until it has passed. */
    boolean pausing() {
        return pausing;
    }

    /** Runs {@code next} once the coming week has passed (or the run drains). */
    void defer(Runnable next) {
        deferred.add(next);
    }

    /** How many weeks have passed. */
    long passed() {
        return passed;
    }

    /**
     * Asks for a week; granted at most once per {@link #EVERY} of world time after the last, and not while the run
     * drains.
     *
     * @return whether one comes
     */
    boolean request() {
        if (pausing || draining.getAsBoolean() || loop.now() < endedAt + EVERY) {
            return false;
        }
        pausing = true;
        loop.after(100 * MS, this::whenQuiet);
        return true;
    }

    private void whenQuiet() {
        if (!pausing) {
            return;
        }
        if (acquiring.getAsInt() > 0 || !book.allLongerThan(DAY)) {
            loop.after(100 * MS, this::whenQuiet);
            return;
        }
        loop.after(6_000 * MS, () -> {
            if (!pausing) {
                return;
            }
            long gap = 7 * DAY + random.nextLong(3600_000, 12 * 3600_000) * MS;
            loop.suspend(gap);
            passed++;
            observe.accept(gap);
            resume();
        });
    }

    /** Ends the pause, at once when the run drains: what was deferred runs. */
    void resume() {
        if (!pausing) {
            return;
        }
        pausing = false;
        endedAt = loop.now();
        for (Runnable next : deferred) {
            loop.after(random.nextLong(0, 100 * MS), next);
        }
        deferred.clear();
    }
}
