package dev.dlock.internal.util;

import dev.dlock.Lease;
import dev.dlock.LockListener;
import dev.dlock.LockLostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;

/**
 * Hands the client's lock events to its {@link LockListener}s, each call isolated: a listener that
 * throws is logged and the others still hear the event. With no listener, {@link #enabled()} is false
 * and callers skip the work of reporting. Immutable and thread-safe.
 */
public final class Events {
    static final Events NONE = new Events(List.of());

    private final List<LockListener> listeners;

    private Events(List<LockListener> listeners) {
        this.listeners = listeners;
    }

    public static Events of(List<LockListener> listeners) {
        return listeners.isEmpty() ? NONE : new Events(List.copyOf(listeners));
    }

    public boolean enabled() {
        return !listeners.isEmpty();
    }

    public void acquire(String name, LockListener.Outcome outcome, long waitedNanos) {
        if (enabled()) {
            Duration waited = Duration.ofNanos(Math.max(0, waitedNanos));
            each("acquire", l -> l.acquire(name, outcome, waited));
        }
    }

    public void started(String name) {
        if (enabled()) {
            each("holdStarted", l -> l.holdStarted(name));
        }
    }

    public void released(String name) {
        if (enabled()) {
            each("holdReleased", l -> l.holdReleased(name));
        }
    }

    public void lost(String name, LockLostException loss) {
        if (enabled()) {
            each("holdLost", l -> l.holdLost(name, loss));
        }
    }

    public void expired(String name, LockLostException end) {
        if (enabled()) {
            each("holdExpired", l -> l.holdExpired(name, end));
        }
    }

    public void renewal(int holds, boolean succeeded) {
        if (enabled()) {
            each("renewal", l -> l.renewal(holds, succeeded));
        }
    }

    private void each(String event, Consumer<LockListener> call) {
        for (LockListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException e) {
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock's LockListener " + listener + " threw on " + event + "; the lock is not affected",
                        e);
            }
        }
    }

    /** How an acquire ended: its lease, null when the wait ran out, or its failure (a cancellation). */
    public static LockListener.Outcome outcome(Lease lease, Throwable error) {
        if (error instanceof CancellationException) {
            return LockListener.Outcome.CANCELLED;
        }
        if (error != null) {
            return LockListener.Outcome.FAILED;
        }
        return lease != null ? LockListener.Outcome.ACQUIRED : LockListener.Outcome.BUSY;
    }
}
