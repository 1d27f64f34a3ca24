package dev.dlock.internal.multi;

import dev.dlock.Lease;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.LossListeners;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The lease of a multi-lock (docs/lock-family.md): one {@link Lease} per name, taken in the names'
 * order, held and given up as one.
 *
 * <p>Protocol: each name's lease is renewed by its own client's watchdog (or ends at its fixed lease
 * time) exactly as a single lock's. The state moves once from HELD to RELEASED or LOST. The first loss
 * of any name's lease makes the whole lease LOST: its own listeners run once with that name's loss,
 * and the other names are released at once (owner-checked), so a lost multi-lease holds nothing. A
 * release releases every name, also when one of them turns out lost, and then reports that loss.
 * Thread-safe.
 */
final class MultiLease implements Lease {
    private enum State {
        HELD,
        RELEASED,
        LOST
    }

    private final String label;
    private final List<Lease> parts;
    private final AtomicReference<State> state = new AtomicReference<>(State.HELD);
    private final LossListeners listeners;
    private volatile LockLostException loss; // set once, right after the state became LOST
    private volatile boolean lossReported;

    MultiLease(String label, List<Lease> parts, Callbacks callbacks) {
        this.label = label;
        this.parts = List.copyOf(parts);
        this.listeners = new LossListeners(callbacks);
        for (Lease part : this.parts) {
            part.onLost(this::partLost);
        }
    }

    /** One name's lease was lost (its listener, on the callback executor): the whole lease is. */
    private void partLost(LockLostException partLoss) {
        if (!state.compareAndSet(State.HELD, State.LOST)) {
            return; // released meanwhile, or lost through another name already
        }
        loss = partLoss;
        // The hold is gone as a whole: keeping the other names would block their waiters for nothing.
        releaseQuietly(parts);
        listeners.lost(partLoss);
    }

    /** Releases leases, ignoring their losses and failures (a name not released expires with its lease). */
    static void releaseQuietly(List<Lease> leases) {
        for (Lease lease : leases) {
            try {
                lease.release();
            } catch (LockException e) {
                // lost already (nothing to release) or Redis did not answer (the key expires with its lease)
            }
        }
    }

    @Override
    public String lockName() {
        return label;
    }

    /** The first name's token (in the names' order); {@link #fencingTokens()} has each name's. */
    @Override
    public long fencingToken() {
        return parts.get(0).fencingToken();
    }

    @Override
    public Map<String, Long> fencingTokens() {
        Map<String, Long> tokens = new LinkedHashMap<>();
        for (Lease part : parts) {
            tokens.put(part.lockName(), part.fencingToken());
        }
        return Collections.unmodifiableMap(tokens);
    }

    @Override
    public Duration remaining() {
        if (state.get() != State.HELD) {
            return Duration.ZERO;
        }
        Duration least = null;
        for (Lease part : parts) {
            Duration left = part.remaining();
            if (least == null || left.compareTo(least) < 0) {
                least = left;
            }
        }
        return least;
    }

    @Override
    public boolean isValid() {
        if (state.get() != State.HELD) {
            return false;
        }
        for (Lease part : parts) {
            if (!part.isValid()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean expireIn(Duration remaining) {
        Args.positive("remaining", remaining);
        if (state.get() != State.HELD) {
            return false;
        }
        boolean all = true;
        for (Lease part : parts) {
            // a part that answers false is marked lost by its lease, which makes this lease lost
            all &= part.expireIn(remaining);
        }
        return all && state.get() == State.HELD;
    }

    @Override
    public void release() {
        if (state.compareAndSet(State.HELD, State.RELEASED)) {
            LockException first = null;
            for (Lease part : parts) {
                try {
                    part.release();
                } catch (LockException e) {
                    // every other name is still released; a loss is reported before a failure to reach Redis
                    if (first == null || (e instanceof LockLostException && !(first instanceof LockLostException))) {
                        if (first != null) {
                            e.addSuppressed(first);
                        }
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                lossReported = true;
                throw first;
            }
            return;
        }
        if (state.get() == State.LOST && !lossReported) {
            lossReported = true;
            throw awaitLoss();
        }
    }

    private LockLostException awaitLoss() {
        LockLostException seen;
        while ((seen = loss) == null) {
            Thread.onSpinWait(); // partLost is between its state change and setting the loss
        }
        return seen;
    }

    /**
     * The loss, if the lease was lost, now reported (a thread's re-entry throws it, and its unlock then
     * returns quietly, as for a single lock); null while held or released.
     */
    LockLostException reportLoss() {
        if (state.get() != State.LOST) {
            return null;
        }
        lossReported = true;
        return awaitLoss();
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public Lease onLost(Consumer<? super LockLostException> listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.listen(listener, () -> loss);
        return this;
    }

    @Override
    public CompletableFuture<LockLostException> whenLost() {
        return listeners.whenLost(loss);
    }

    @Override
    public String toString() {
        return "Lease[" + label + ", tokens " + fencingTokens() + ", " + state.get() + "]";
    }
}
