package dev.dlock.internal.mutex;

import dev.dlock.internal.lease.RedisLease;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One acquire as the caller sees it, waiting in its {@link NameRelay}'s line or acting in Redis; completes
 * with the lease, null when the wait ran out, or the failure.
 */
final class PendingAcquire extends CompletableFuture<RedisLease> {
    static final long FOREVER = Long.MAX_VALUE;

    final String owner;
    final long leaseMillis;
    final boolean renewed;
    final long deadline; // ticker nanos, or FOREVER
    NameRelay gate; // set by admit
    Acquisition acquisition; // guarded by gate: set when the turn acts
    boolean cancelled; // guarded by gate
    private volatile ScheduledFuture<?> timer;

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
