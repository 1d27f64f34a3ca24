package dev.dlock.internal.mutex;

import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.wait.QueuedAcquisition;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One acquire as the caller sees it, waiting in its {@link NameRelay}'s line or acting in Redis; completes
 * with the lease, null when the wait ran out, or the failure. When it acts, it is the outcome of its
 * {@link QueuedAcquisition}: the result goes to the gate ({@code gate.actorDone}), which relays the lock
 * to the next turn of this client or releases it, and completes this turn.
 */
final class PendingAcquire extends CompletableFuture<RedisLease> implements QueuedAcquisition.Outcome {
    static final long FOREVER = Long.MAX_VALUE;
    private static final VarHandle SETTLED;

    static {
        try {
            SETTLED = MethodHandles.lookup().findVarHandle(PendingAcquire.class, "settled", CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String owner;
    final long leaseMillis;
    final boolean renewed;
    final long deadline; // ticker nanos, or FOREVER
    NameRelay gate; // set by admit
    QueuedAcquisition acquisition; // guarded by gate: set when the turn acts
    boolean cancelled; // guarded by gate
    private volatile ScheduledFuture<?> timer;
    // Created only by cancelActing(); settle() and cancelActing() each write their side, then read the other's.
    private volatile CompletableFuture<Void> settled;
    private volatile boolean finished; // its acquisition has settled

    PendingAcquire(String owner, long leaseMillis, boolean renewed, long waitNanos, long now) {
        this.owner = owner;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.deadline = waitNanos >= FOREVER - now ? FOREVER : now + waitNanos;
    }

    /** Gives up; the returned future completes once no lock taken by this turn is left. */
    CompletableFuture<Void> giveUp() {
        return gate.giveUp(this);
    }

    /** Gives up its acquisition in Redis; the returned future completes once no lock it took is left. */
    CompletableFuture<Void> cancelActing(QueuedAcquisition acting) {
        acting.markCancelled();
        SETTLED.compareAndSet(this, null, new CompletableFuture<Void>());
        CompletableFuture<Void> s = settled;
        if (finished) {
            s.complete(null);
        }
        return s;
    }

    /** Its acquisition's result, handed to the gate; a turn that no longer wants the lease releases it. */
    @Override
    public void settle(RedisLease lease, RuntimeException failure) {
        gate.actorDone(this, lease, failure);
        finished = true;
        CompletableFuture<Void> s = settled;
        if (s != null) {
            s.complete(null);
        }
    }

    /** The timer that ends the turn's wait in line. */
    void timer(ScheduledFuture<?> timer) {
        this.timer = timer;
    }

    void cancelTimer() {
        ScheduledFuture<?> t = timer;
        if (t != null) {
            t.cancel(false);
        }
    }
}
