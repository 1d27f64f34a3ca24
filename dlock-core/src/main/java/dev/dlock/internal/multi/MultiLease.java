package dev.dlock.internal.multi;

import dev.dlock.Lease;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.internal.lease.LeaseState;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.ThreadHolds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * The lease of a multi-lock (docs/lock-family.md): one {@link Lease} per name, taken in the names'
 * order, held and given up as one.
 *
 * <p>Protocol: each name's lease is renewed by its own client's watchdog (or ends at its fixed lease
 * time) exactly as a single lock's. The state moves once from HELD to RELEASED or LOST ({@link
 * LeaseState}). The first loss
 * of any name's lease makes the whole lease LOST: its own listeners run once with that name's loss,
 * and the other names are released at once (owner-checked), so a lost multi-lease holds nothing. A
 * release releases every name, also when one of them turns out lost, and then reports that loss.
 * Thread-safe.
 */
final class MultiLease implements ThreadHolds.Reentrant {
    private final String label;
    private final List<Lease> parts;
    private final LeaseState state;

    MultiLease(String label, List<Lease> parts, Callbacks callbacks) {
        this.label = label;
        this.parts = List.copyOf(parts);
        this.state = new LeaseState(callbacks);
        for (Lease part : this.parts) {
            part.onLost(this::partLost);
        }
    }

    /** One name's lease was lost (its listener, on the callback executor): the whole lease is. */
    private void partLost(LockLostException partLoss) {
        if (!state.toLost()) {
            return; // released meanwhile, or lost through another name already
        }
        // The hold is gone as a whole: keeping the other names would block their waiters for nothing.
        state.lost(partLoss, () -> releaseQuietly(parts));
    }

    /**
     * Releases leases and waits for each answer, ignoring their losses and failures (a name not released expires with
     * its lease): the blocking acquire's give-up, on the caller's thread, which returns holding none of the names.
     */
    static void releaseAndWait(List<Lease> leases) {
        for (Lease lease : leases) {
            try {
                lease.release();
            } catch (LockException e) {
                // lost already (nothing to release) or Redis did not answer (the key expires with its lease)
            }
        }
    }

    /**
     * Sends the releases of leases without waiting for them, ignoring their losses and failures (a name not released
     * expires with its lease): it runs on callback threads and in the asynchronous acquire, which must not wait for
     * Redis.
     */
    static void releaseQuietly(List<Lease> leases) {
        for (Lease lease : leases) {
            try {
                lease.releaseAsync(); // its outcome is nobody's: lost already, or the key expires with its lease
            } catch (LockException e) {
                // a lease past its deadline is lost at once: nothing to release
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
        if (!state.isHeld()) {
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
        if (!state.isHeld()) {
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
        if (!state.isHeld()) {
            return false;
        }
        boolean all = true;
        for (Lease part : parts) {
            // a part that answers false is marked lost by its lease, which makes this lease lost
            all &= part.expireIn(remaining);
        }
        return all && state.isHeld();
    }

    @Override
    public void release() {
        if (state.toReleased()) {
            Failures failures = new Failures();
            for (Lease part : parts) {
                try {
                    part.release();
                } catch (LockException e) {
                    failures.add(e); // every other name is still released
                }
            }
            failures.throwFirst();
            return;
        }
        LockLostException loss = state.reportLossOnce();
        if (loss != null) {
            throw loss;
        }
    }

    /** Releases every name at once; the future completes when all answered, with the failure {@link #release()} throws. */
    @Override
    public CompletableFuture<Void> releaseAsync() {
        if (!state.toReleased()) {
            LockLostException loss = state.reportLossOnce();
            return loss == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(loss);
        }
        List<CompletableFuture<Void>> released = new ArrayList<>(parts.size());
        for (Lease part : parts) {
            released.add(part.releaseAsync());
        }
        return CompletableFuture.allOf(released.toArray(CompletableFuture[]::new))
                .handle((ignored, error) -> {
                    Failures failures = new Failures();
                    for (CompletableFuture<Void> part : released) {
                        try {
                            part.join();
                        } catch (CompletionException e) {
                            failures.add(
                                    e.getCause() instanceof LockException l
                                            ? l
                                            : new LockException("release failed: " + e.getCause(), e.getCause()));
                        }
                    }
                    failures.throwFirst();
                    return null;
                });
    }

    /** The failures of releasing the names: a loss is reported before a failure to reach Redis, the others suppressed. */
    private static final class Failures {
        private LockException first;

        void add(LockException e) {
            if (first == null || (e instanceof LockLostException && !(first instanceof LockLostException))) {
                if (first != null) {
                    e.addSuppressed(first);
                }
                first = e;
            } else {
                first.addSuppressed(e);
            }
        }

        void throwFirst() {
            if (first != null) {
                throw first;
            }
        }
    }

    /**
     * A thread's re-entry throws the loss if the lease was lost, which then counts as reported (its unlock
     * returns quietly, as for a single lock). Each name's lease is renewed by its own watchdog; this
     * checks no validity of its own.
     */
    @Override
    public void confirmForReentry() {
        LockLostException loss = state.reportLoss();
        if (loss != null) {
            throw loss;
        }
    }

    @Override
    public void close() {
        release();
    }

    @Override
    public Lease onLost(Consumer<? super LockLostException> listener) {
        state.onLost(listener);
        return this;
    }

    @Override
    public CompletableFuture<LockLostException> whenLost() {
        return state.whenLost();
    }

    @Override
    public String toString() {
        return "Lease[" + label + ", tokens " + fencingTokens() + ", " + state + "]";
    }
}
