package dev.dlock.internal.lease;

import dev.dlock.Lease;
import dev.dlock.LockLostException;
import dev.dlock.LockReplicationException;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.CallerChecked;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.Ticker;
import dev.dlock.internal.util.Validity;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One hold in Redis. Protocol: the lease is valid until {@code deadline}, a monotonic-clock instant
 * computed from the time <em>before</em> the acquire (or renewal) was sent, minus a drift allowance;
 * Redis keeps the key at least that long. The state moves once from HELD to RELEASED or LOST and
 * never back ({@link LeaseState}, which also keeps the loss listeners), so a late renewal reply cannot
 * revive a lost lease.
 */
public final class RedisLease implements ThreadHolds.Reentrant, CallerChecked {
    private final Leases leases;
    private final LockKeys keys;
    private final String owner;
    private final long token;
    private final long leaseMillis;
    private final boolean renewed;
    private final Ticker ticker;
    // The mutex's NameRelay (the client's line for this lock name) or a semaphore: every end of the lease goes
    // through it, and it says how the lease is renewed.
    private final LeaseKind kind;
    // The leases relayed from one hold share one Relay, which points at the newest; null until the
    // first relay. A renewal answered for an older one applies to the newest (same Redis owner).
    private volatile Relay relay;
    private final LeaseState state;
    private volatile long deadline;

    RedisLease(
            Leases leases,
            LockKeys keys,
            String owner,
            long token,
            long leaseMillis,
            boolean renewed,
            long sentAt,
            LeaseKind kind) {
        this.leases = leases;
        this.keys = keys;
        this.owner = owner;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.ticker = leases.ticker();
        this.deadline = Validity.deadlineFrom(sentAt, leaseMillis);
        this.kind = kind;
        this.state = new LeaseState(leases.callbacks());
    }

    /** The next lease of the same hold, with a new token and this lease's validity (NameRelay's relay). */
    RedisLease relayTo(long nextToken) {
        RedisLease next = new RedisLease(leases, keys, owner, nextToken, leaseMillis, renewed, 0, kind);
        next.deadline = deadline;
        Relay r = relay;
        if (r == null) {
            r = new Relay();
            relay = r;
        }
        next.relay = r;
        r.newest = next;
        return next;
    }

    /** Whether this lease was relayed to or from another of the same hold (NameRelay). */
    public boolean isRelayed() {
        return relay != null;
    }

    /** The newest lease of this one's hold: this one, unless it was relayed on. */
    RedisLease newest() {
        Relay r = relay;
        RedisLease n = r == null ? null : r.newest;
        return n == null ? this : n;
    }

    LockKeys keys() {
        return keys;
    }

    /** How this lease is released and renewed in Redis. */
    public LeaseKind kind() {
        return kind;
    }

    public String owner() {
        return owner;
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public boolean isRenewed() {
        return renewed;
    }

    public long deadline() {
        return deadline;
    }

    public boolean isHeld() {
        return state.isHeld();
    }

    /** A renewal sent at {@code sentAt} succeeded. */
    public void renewed(long sentAt) {
        long next = Validity.deadlineFrom(sentAt, leaseMillis);
        if (next > deadline) {
            deadline = next;
        }
    }

    /** The fixed lease's expiry timer: it ends the lease if its deadline has come (it may have moved). */
    void expireIfDue(String reason) {
        if (deadline - ticker.nanos() <= 0) {
            expire(reason);
        }
    }

    @Override
    public synchronized boolean expireIn(Duration remaining) {
        long millis = Args.positive("remaining", remaining).toMillis();
        if (millis == 0) {
            throw new IllegalArgumentException("remaining must be at least 1 ms, was " + remaining);
        }
        if (renewed) {
            throw new IllegalStateException("lease " + this + " is renewed by the watchdog; expireIn is for leases"
                    + " taken with an explicit lease time");
        }
        if (!state.isHeld()) {
            return false;
        }
        long sentAt = ticker.nanos();
        long next = Validity.deadlineFrom(sentAt, millis);
        if (next < deadline) {
            deadline = next; // a shortening counts while the command is on its way
        }
        if (!leases.scripts().await(leases.expireIn(this, millis), keys.lock())) {
            markLost("setting its remaining time found the key gone or owned by another owner");
            return false;
        }
        if (!state.isHeld()) {
            return false;
        }
        deadline = next;
        leases.expireAtDeadline(this, "the remaining time of " + millis + " ms set by expireIn ran out");
        return true;
    }

    /**
     * For a thread that takes the lock again while it holds it: returns when the hold is valid for at
     * least half its lease time (renewing it now, with a round trip, if the watchdog has fallen
     * behind), and otherwise throws the loss, which then counts as reported.
     *
     * @throws LockLostException if the hold is lost or cannot be shown valid for that long
     */
    @Override
    public void confirmForReentry() {
        if (validForHalf(false)) {
            return;
        }
        if (state.isHeld()) {
            expire("it could not be shown valid for half its lease of " + leaseMillis + " ms when re-entered");
        }
        LockLostException loss = state.reportLoss();
        if (loss != null) {
            throw loss;
        }
        throw new IllegalStateException("lease " + this + " was released while its thread re-entered it");
    }

    /**
     * For an acquire, on its caller's thread as it is about to return this new hold: whether the hold is
     * valid for at least half its lease time as the caller's clock has it. The acquire checked that when
     * its reply was processed, on the transport's thread; the caller's thread may wake up much later on a
     * loaded host, and the hold is then renewed now, one round trip (a fixed lease gets its lease time
     * again from now). When that cannot be shown (lost, or the renewal not acknowledged) the hold is
     * released and false returned: the caller tries again. A failure of the renewal releases it too.
     *
     * @throws dev.dlock.LockException if the renewal fails (connection, server): the hold is released
     */
    boolean keepForCaller() {
        return keepForCaller(false);
    }

    @Override
    public boolean keepForCaller(boolean confirm) {
        boolean valid;
        try {
            valid = validForHalf(confirm);
        } catch (RuntimeException | Error e) {
            releaseQuietly();
            throw e;
        }
        if (!valid) {
            Log.LOG.log(
                    System.Logger.Level.INFO,
                    "dlock: a hold of ''{0}'' could not be shown valid for half its lease of {1} ms when its"
                            + " acquire returned; it is given up and the acquire tries again",
                    keys.name(),
                    leaseMillis);
            releaseQuietly();
        }
        return valid;
    }

    /**
     * Whether the hold is valid for at least half its lease time now, renewing it first (one round trip)
     * if it is held with less: a renewal that finds the key gone marks it lost; one that is not
     * acknowledged by the replicas does not count.
     */
    private boolean validForHalf(boolean confirm) {
        long margin = Validity.marginNanos(leaseMillis);
        if (!confirm && validForHalfNow()) {
            return true;
        }
        if (state.isHeld() && deadline - ticker.nanos() > 0) {
            long sentAt = ticker.nanos();
            Boolean ours;
            try {
                ours = leases.scripts().await(leases.renewNow(this), keys.lock());
            } catch (LockReplicationException e) {
                // Renewed on the master only: it does not count.
                Log.LOG.log(System.Logger.Level.WARNING, "dlock: {0}", e.getMessage());
                ours = null;
            }
            if (ours == null) {
                return false;
            } else if (ours) {
                renewed(sentAt);
                if (!renewed) {
                    leases.expireAtDeadline(this, "its fixed lease time of " + leaseMillis + " ms ran out");
                }
                return state.isHeld() && deadline - ticker.nanos() >= margin;
            } else {
                markLost("the renewal found the key gone or owned by another owner");
            }
        }
        return false;
    }

    @Override
    public boolean validForHalfNow() {
        return state.isHeld() && deadline - ticker.nanos() >= Validity.marginNanos(leaseMillis);
    }

    /** Marks the lease lost (once) and runs the listeners; a released lease stays released. */
    void markLost(String reason) {
        if (state.toLost()) {
            lost(reason, false);
        }
    }

    /**
     * Marks a lease whose deadline passed lost (once, and only if still held), after sending an
     * owner-checked release that frees the key at once if it is still this hold's. The release goes
     * first: the loss lets the next acquire of this client go to Redis, which must run it after the
     * release. A lease released meanwhile sends nothing (its hold may live on, relayed).
     */
    void expire(String reason) {
        if (state.toLost()) {
            kind.releaseInRedis(this);
            lost(reason, !renewed); // a fixed lease ends at its deadline by its holder's choice
        }
    }

    /** {@code planned}: a fixed lease ran out, the end its holder chose; any other loss is a fault to look into. */
    private void lost(String reason, boolean planned) {
        LockLostException loss = new LockLostException(keys.name(), token, reason);
        state.lost(loss, () -> {
            leases.lost(this, loss, planned);
            kind.lost(this);
            Log.LOG.log(
                    planned ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                    "dlock lost lock ''{0}'' (fencing token {1}): {2}",
                    keys.name(),
                    Long.toString(token),
                    reason);
        });
    }

    @Override
    public String lockName() {
        return keys.name();
    }

    @Override
    public long fencingToken() {
        return token;
    }

    @Override
    public Duration remaining() {
        if (!state.isHeld()) {
            return Duration.ZERO;
        }
        long left = deadline - ticker.nanos();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public boolean isValid() {
        return state.isHeld() && deadline - ticker.nanos() > 0;
    }

    @Override
    public void release() {
        CompletableFuture<Boolean> sent = sendRelease();
        if (sent != null) {
            if (!leases.scripts().await(sent, keys.lock())) {
                throw goneOnRelease();
            }
            return;
        }
        LockLostException loss = state.reportLossOnce();
        if (loss != null) {
            throw loss;
        }
    }

    @Override
    public CompletableFuture<Void> releaseAsync() {
        CompletableFuture<Boolean> sent = sendRelease();
        if (sent == null) {
            LockLostException loss = state.reportLossOnce();
            return loss == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(loss);
        }
        CompletableFuture<Void> outcome = sent.thenApply(released -> {
            if (!released) {
                throw goneOnRelease();
            }
            return null;
        });
        return leases.callbacks().relay(outcome, error -> leases.scripts().translate(error, keys.lock()));
    }

    /** Sends the release of a held lease (a lease past its deadline is lost first); null if not held. */
    private CompletableFuture<Boolean> sendRelease() {
        if (state.isHeld() && deadline - ticker.nanos() <= 0) {
            expire("its lease of " + leaseMillis + " ms ran out before it was released");
        }
        if (!state.toReleased()) {
            return null;
        }
        leases.released(this);
        return kind.release(this);
    }

    private LockLostException goneOnRelease() {
        return new LockLostException(
                keys.name(), token, "the key was gone or owned by another owner when it was released");
    }

    /** Releases without waiting or reporting, for a lock taken by an attempt nobody wants any more. */
    public void releaseQuietly() {
        if (state.toReleased()) {
            leases.released(this);
            kind.release(this);
        }
    }

    /** Marks the lease released because its client is closing; the client releases it in Redis. */
    public void markReleasedForClose() {
        if (state.toReleased()) {
            leases.released(this);
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

    /** The leases relayed from one hold. */
    private static final class Relay {
        volatile RedisLease newest;
    }

    @Override
    public String toString() {
        return "Lease[" + keys.name() + ", token " + token + ", " + state + "]";
    }
}
