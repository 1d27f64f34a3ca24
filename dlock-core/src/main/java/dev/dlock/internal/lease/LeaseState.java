package dev.dlock.internal.lease;

import dev.dlock.LockLostException;
import dev.dlock.internal.util.Callbacks;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The state machine every lease shares (of one Redis, of Redlock, of a multi-lock): HELD, then once
 * either RELEASED or LOST, never back, so a late renewal reply cannot revive a lost lease; the loss,
 * reported by {@code release()} once; the loss listeners and the {@code whenLost()} future.
 *
 * <p>Protocol: whoever moves the state out of HELD by compare and set ({@link #toReleased}, {@link
 * #toLost}) owns that end; of a release and a loss that race, the first wins and the other does
 * nothing. The winner of {@link #toLost} then calls {@link #lost} exactly once: it records the loss,
 * lets the lease act on it, and tells the listeners, which run on the client's callback executor
 * ({@link LossListeners}). The listeners and the future are made only when somebody asks for them:
 * most leases are released, never lost, and the uncontended acquire and release allocate as little as
 * they can. What a lease does at each end (Redis, watchdog, events) stays the lease's. Thread-safe.
 */
public final class LeaseState {
    /** Where a lease is: HELD, then RELEASED or LOST for good. */
    public enum State {
        HELD,
        RELEASED,
        LOST
    }

    private static final VarHandle STATE;
    private static final VarHandle LISTENERS;
    private static final VarHandle REPORTED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(LeaseState.class, "state", State.class);
            LISTENERS = lookup.findVarHandle(LeaseState.class, "listeners", LossListeners.class);
            REPORTED = lookup.findVarHandle(LeaseState.class, "lossReported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Callbacks callbacks;

    @SuppressWarnings("unused") // through STATE
    private volatile State state = State.HELD;
    // Set once: right after the state became LOST, or by a release that found the lease lost (lostOnRelease).
    private volatile LockLostException loss;
    private volatile LossListeners listeners; // made by onLost() or whenLost()

    @SuppressWarnings("unused") // through REPORTED
    private volatile boolean lossReported;

    /**
     * A held lease's state.
     *
     * @param callbacks the client's callback executor, which runs the loss listeners
     */
    public LeaseState(Callbacks callbacks) {
        this.callbacks = callbacks;
    }

    /** The state now. */
    public State get() {
        return state;
    }

    /** Whether the lease is neither released nor lost (its deadline is the lease's to judge). */
    public boolean isHeld() {
        return state == State.HELD;
    }

    /** Whether the lease was lost (not released). */
    public boolean isLost() {
        return state == State.LOST;
    }

    /** HELD → RELEASED: true if this call released the lease; false if it had ended already. */
    public boolean toReleased() {
        return STATE.compareAndSet(this, State.HELD, State.RELEASED);
    }

    /**
     * HELD → LOST: true if this call lost the lease, and the caller must then call {@link #lost} once;
     * false if it had ended already (a released lease stays released).
     */
    public boolean toLost() {
        return STATE.compareAndSet(this, State.HELD, State.LOST);
    }

    /**
     * Completes a loss that {@link #toLost} began: records {@code loss}, runs {@code effects} (what the
     * lease does about it before its listeners hear of it: the watchdog, the events, the other names of
     * a multi-lock), then tells the listeners and the {@code whenLost()} futures.
     */
    public void lost(LockLostException loss, Runnable effects) {
        this.loss = loss;
        effects.run();
        tellListeners(loss);
    }

    /**
     * A release (the state RELEASED) that found the lease lost, as Redlock's does when too few nodes
     * had it: the loss counts as reported by that release, is recorded for later listeners, and {@code
     * effects} run before the listeners are told. The state stays RELEASED.
     */
    public void lostOnRelease(LockLostException loss, Runnable effects) {
        lossReported = true;
        lost(loss, effects);
    }

    // Each side writes its own field, then reads the other's: one of them sees both.
    private void tellListeners(LockLostException loss) {
        LossListeners l = listeners;
        if (l != null) {
            l.lost(loss);
        }
    }

    /**
     * For {@code release()} of a lease that is not held: the loss the first time it is asked for after
     * the lease was lost, null otherwise (released, or the loss reported already).
     */
    public LockLostException reportLossOnce() {
        if (state != State.LOST || !REPORTED.compareAndSet(this, false, true)) {
            return null;
        }
        return awaitLoss();
    }

    /**
     * For a thread's re-entry of a lost hold: the loss (now counted as reported, so the thread's
     * unlock returns quietly), or null if the lease was not lost.
     */
    public LockLostException reportLoss() {
        if (state != State.LOST) {
            return null;
        }
        lossReported = true;
        return awaitLoss();
    }

    private LockLostException awaitLoss() {
        LockLostException seen;
        while ((seen = loss) == null) {
            Thread.onSpinWait(); // the loser is between its state change and recording the loss
        }
        return seen;
    }

    /**
     * {@code Lease.onLost}: the listener runs once when the lease is lost, at once if it is lost already.
     *
     * @throws NullPointerException if {@code listener} is null
     */
    public void onLost(Consumer<? super LockLostException> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners().listen(listener, () -> loss);
    }

    /** {@code Lease.whenLost}: a new future of the loss, completed already if the lease was lost. */
    public CompletableFuture<LockLostException> whenLost() {
        LossListeners l = listeners();
        return l.whenLost(loss);
    }

    private LossListeners listeners() {
        LossListeners l = listeners;
        if (l == null) {
            LISTENERS.compareAndSet(this, null, new LossListeners(callbacks));
            l = listeners;
        }
        return l;
    }

    /** The state's name: HELD, RELEASED or LOST. */
    @Override
    public String toString() {
        return state.toString();
    }
}
