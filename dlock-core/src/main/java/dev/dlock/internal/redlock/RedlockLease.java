package dev.dlock.internal.redlock;

import dev.dlock.Lease;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.internal.lease.LeaseState;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.CallerChecked;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.Validity;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One Redlock hold: the owner id it wrote on a quorum of nodes, its fencing token and its validity
 * deadline on this JVM's monotonic clock.
 *
 * <p>Validity: a round that sets the lock's time on the nodes (the acquire, a watchdog renewal,
 * {@link #expireIn}) counts from before its first command was sent, less the drift allowance
 * ({@link Validity#deadlineFrom}: 1% of the time + 2 ms), and only if a quorum of nodes confirmed it
 * before that deadline. A renewal that a quorum did not confirm leaves the deadline where it was, and
 * the lease is lost when it passes (a timer on the client's timer thread); a round in which so many
 * nodes answered "not yours" that no quorum can hold it any more marks it lost at once.
 *
 * <p>Release and renewal go to every node, whatever the acquire's round saw of it: a node that missed
 * the acquire answers "not yours", which is harmless. Thread-safe: the state changes by compare and
 * set ({@link LeaseState}), the deadline is volatile.
 */
final class RedlockLease implements ThreadHolds.Reentrant, CallerChecked {

    private final RedlockContext ctx;
    private final String name;
    private final String[] lockKey;
    private final String owner;
    private final long token;
    private final long leaseMillis;
    private final boolean renewed;
    /** The confirmations a watchdog renewal needs: a quorum (1 under redlock-minority-renewal). */
    private final int renewQuorum;

    private final LeaseState state;
    private volatile long deadline;

    RedlockLease(
            RedlockContext ctx,
            String name,
            String[] keys,
            String owner,
            long token,
            long leaseMillis,
            boolean renewed,
            long deadline,
            boolean minorityRenewal) {
        this.ctx = ctx;
        this.renewQuorum = minorityRenewal ? 1 : ctx.quorum(); // 1: the negative control redlock-minority-renewal
        this.name = name;
        this.lockKey = RedlockScripts.lockKey(keys);
        this.owner = owner;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.deadline = deadline;
        this.state = new LeaseState(ctx.callbacks());
    }

    /** Registers the lease as held and arms its expiry timer. */
    void start() {
        ctx.held().add(this);
        armExpiry();
    }

    private void armExpiry() {
        long delay = Math.max(0, deadline - ctx.ticker().nanos());
        try {
            ctx.timer().schedule(this::checkExpiry, delay, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // The client is closing: its close releases this lease.
        }
    }

    /** The timer's check at the deadline: re-armed if the deadline moved, else the lease ends. */
    private void checkExpiry() {
        if (!state.isHeld()) {
            return;
        }
        if (deadline - ctx.ticker().nanos() > 0) {
            armExpiry();
            return;
        }
        if (renewed) {
            markLost("no quorum of nodes confirmed a renewal before its validity ran out", false);
        } else {
            markLost("its lease time ended", true);
        }
    }

    /**
     * As every acquire: a re-entry returns a hold valid for at least half its lease, renewing it (one
     * watchdog round) if need be; a hold that cannot be shown so is marked lost and a loss thrown.
     * Unlike a lease of one Redis, that thrown loss does not count as the lease's reported loss: the
     * thread's last unlock throws it again.
     */
    @Override
    public void confirmForReentry() {
        long margin = Validity.marginNanos(leaseMillis); // a thread's hold has the client's lease time
        if (isValid() && remaining().toNanos() < margin) {
            // A renewal without an answer is judged below by the remaining validity.
            ctx.runtime()
                    .await()
                    .replyOrNull(renew(), ctx.nodes().commandTimeout().toMillis() + 1000);
        }
        if (!isValid() || remaining().toNanos() < margin) {
            markLost("it could not be shown valid for half its lease when re-entered", false);
            // reported here, to the re-entering thread: its outer unlock then ends quietly, as on one Redis
            LockLostException loss = state.reportLoss();
            if (loss != null) {
                throw loss;
            }
            throw new IllegalStateException("lease " + this + " was released while its thread re-entered it");
        }
    }

    boolean isWatchdogRenewed() {
        return renewed;
    }

    String owner() {
        return owner;
    }

    /**
     * One watchdog renewal: {@code PEXPIRE} with the lease time on every node, owner-checked. The
     * deadline moves only if a quorum confirmed it within the new validity.
     */
    CompletableFuture<Void> renew() {
        if (!state.isHeld()) {
            return CompletableFuture.completedFuture(null);
        }
        long sent = ctx.ticker().nanos();
        String[] args = {owner, Long.toString(leaseMillis)};
        return ctx.nodes()
                .fanOut(RedlockScripts.RENEW, lockKey, args, r -> count(r, 1L) >= renewQuorum)
                .thenAccept(round -> {
                    int confirmed = count(round, 1L);
                    int refused = count(round, 0L);
                    long next = Validity.deadlineFrom(sent, leaseMillis);
                    if (confirmed >= renewQuorum && next - ctx.ticker().nanos() > 0 && state.isHeld()) {
                        if (next - deadline > 0) {
                            deadline = next;
                        }
                        ctx.events().renewal(1, true);
                        return;
                    }
                    ctx.events().renewal(1, false);
                    if (refused > ctx.size() - ctx.quorum()) {
                        markLost(
                                "the renewal found it gone or owned by another owner on " + refused + " of "
                                        + ctx.size() + " nodes",
                                false);
                    } else {
                        Log.LOG.log(
                                System.Logger.Level.WARNING,
                                "dlock Redlock renewal of lock ''{0}'' (fencing token {1}) was confirmed by {2} of {3} nodes,"
                                        + " {4} needed; it is tried again in the next round ({5})",
                                name,
                                token,
                                confirmed,
                                ctx.size(),
                                ctx.quorum(),
                                round.failures());
                    }
                });
    }

    private static int count(RedlockNodes.Round round, long value) {
        int n = 0;
        for (Object reply : round.replies) {
            if (reply instanceof Long l && l == value) {
                n++;
            }
        }
        return n;
    }

    /** Marks the lease lost (once) and tells its listeners; a released lease stays released. */
    void markLost(String reason, boolean planned) {
        if (state.toLost()) {
            ctx.held().remove(this);
            LockLostException e = new LockLostException(name, token, reason);
            state.lost(e, () -> {
                if (planned) {
                    ctx.events().expired(name, e);
                } else {
                    ctx.events().lost(name, e);
                }
                Log.LOG.log(
                        planned ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
                        "dlock lost Redlock lock ''{0}'' (fencing token {1}): {2}",
                        name,
                        token,
                        reason);
            });
        }
    }

    /** The client's close: marks the lease released and sends the release, without waiting. */
    CompletableFuture<RedlockNodes.Round> releaseForClose() {
        if (state.toReleased()) {
            ctx.held().remove(this);
            ctx.events().released(name);
            return sendRelease();
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Sends the owner-checked delete to every node; the future completes when a quorum released it or
     * each node answered or failed.
     */
    CompletableFuture<RedlockNodes.Round> sendRelease() {
        // done once a quorum released it: a node that is down must not hold the caller up
        return ctx.nodes()
                .fanOut(RedlockScripts.RELEASE, lockKey, new String[] {owner}, r -> count(r, 1L) >= ctx.quorum());
    }

    @Override
    public String lockName() {
        return name;
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
        return Duration.ofNanos(Math.max(0, deadline - ctx.ticker().nanos()));
    }

    @Override
    public boolean isValid() {
        return state.isHeld() && deadline - ctx.ticker().nanos() > 0;
    }

    @Override
    public boolean expireIn(Duration remaining) {
        Objects.requireNonNull(remaining, "remaining");
        Args.positive("remaining", remaining);
        if (renewed) {
            throw new IllegalStateException("the lease of lock '" + name
                    + "' is renewed by the watchdog (it was taken without a lease time): its remaining time is the"
                    + " watchdog's to set");
        }
        if (!state.isHeld()) {
            return false;
        }
        long sent = ctx.ticker().nanos();
        if (deadline - sent <= 0) {
            checkExpiry();
            return false;
        }
        long millis = Math.max(1, remaining.toMillis());
        long next = sent + remaining.toNanos() - remaining.toNanos() / 100 - 2_000_000L;
        if (next - deadline < 0) {
            deadline = next; // a shortening counts at once
        }
        String[] args = {owner, Long.toString(millis)};
        RedlockNodes.Round round =
                await(ctx.nodes().fanOut(RedlockScripts.RENEW, lockKey, args, r -> count(r, 1L) >= ctx.quorum()));
        int confirmed = count(round, 1L);
        int refused = count(round, 0L);
        if (confirmed >= ctx.quorum()) {
            if (!state.isHeld()) {
                return false;
            }
            deadline = next;
            armExpiry();
            return true;
        }
        if (refused > ctx.size() - ctx.quorum()) {
            markLost(
                    "setting its remaining time found it gone or owned by another owner on " + refused + " of "
                            + ctx.size() + " nodes",
                    false);
            return false;
        }
        throw new LockConnectionException(
                ctx.nodes().maskedUris(),
                "only " + confirmed + " of " + ctx.size() + " nodes confirmed the new remaining time of lock '" + name
                        + "', " + ctx.quorum() + " needed; it keeps the earlier of its old and its new end ("
                        + round.failures() + ")",
                round.firstFailure());
    }

    @Override
    public void release() {
        CompletableFuture<RedlockNodes.Round> sent = sendIfHeld();
        if (sent != null) {
            settleRelease(await(sent));
            return;
        }
        throwLossOnce();
    }

    @Override
    public CompletableFuture<Void> releaseAsync() {
        CompletableFuture<RedlockNodes.Round> sent = sendIfHeld();
        if (sent == null) {
            try {
                throwLossOnce();
                return CompletableFuture.completedFuture(null);
            } catch (LockLostException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return ctx.callbacks()
                .relay(
                        sent.thenApply(round -> {
                            settleRelease(round);
                            return null;
                        }),
                        error -> error instanceof CompletionException && error.getCause() != null
                                ? error.getCause()
                                : error);
    }

    /** Sends the release of a held lease (one past its deadline is lost first); null if it was not held. */
    private CompletableFuture<RedlockNodes.Round> sendIfHeld() {
        if (state.isHeld() && deadline - ctx.ticker().nanos() <= 0) {
            checkExpiry();
        }
        if (!state.toReleased()) {
            return null;
        }
        ctx.held().remove(this);
        return sendRelease();
    }

    /** What the nodes' answers to a release mean: released, lost (too few had it) or unknown (none answered). */
    private void settleRelease(RedlockNodes.Round round) {
        int released = count(round, 1L);
        if (round.failed == ctx.size()) {
            ctx.events().released(name);
            throw new LockConnectionException(
                    ctx.nodes().maskedUris(),
                    "no node answered the release of lock '" + name + "'; it expires at the end of its lease time ("
                            + round.failures() + ")",
                    round.firstFailure());
        }
        if (released + round.failed < ctx.quorum()) {
            LockLostException e = new LockLostException(
                    name,
                    token,
                    "the release found it on only " + released + " of " + ctx.size() + " nodes (" + round.failed
                            + " did not answer); a quorum of " + ctx.quorum() + " no longer had it");
            state.lostOnRelease(e, () -> ctx.events().lost(name, e));
            throw e;
        }
        ctx.events().released(name);
    }

    private void throwLossOnce() {
        LockLostException e = state.reportLossOnce();
        if (e != null) {
            sendRelease(); // whatever is left of it on the nodes goes; the answer changes nothing
            throw e;
        }
    }

    /** A release that must not throw: an acquire that was cancelled while it succeeded gives the lock back. */
    void releaseQuietly() {
        if (state.toReleased()) {
            ctx.held().remove(this);
            ctx.events().released(name);
            sendRelease();
        }
    }

    @Override
    public boolean validForHalfNow() {
        return state.isHeld() && deadline - ctx.ticker().nanos() >= Validity.marginNanos(leaseMillis);
    }

    /**
     * {@inheritDoc} The renewal is one watchdog round for this lease (every node, owner-checked): a quorum
     * that confirms moves the deadline; so many "not yours" that no quorum can hold it marks it lost; a
     * round too few nodes answered leaves the deadline where it was, as the watchdog's would.
     */
    @Override
    public boolean keepForCaller(boolean confirm) {
        if (!confirm && validForHalfNow()) {
            return true;
        }
        if (state.isHeld() && deadline - ctx.ticker().nanos() > 0) {
            ctx.runtime().await().reply(renew(), ctx.nodes().commandTimeout().toMillis() + 1000, e -> {
                releaseQuietly();
                return e instanceof InterruptedException
                        ? new LockException("interrupted while renewing lock '" + name + "' for its caller", e)
                        : new LockConnectionException(
                                ctx.nodes().maskedUris(),
                                "no answer while renewing lock '" + name + "' for its caller",
                                e);
            });
        }
        if (validForHalfNow()) {
            return true;
        }
        Log.LOG.log(
                System.Logger.Level.INFO,
                "dlock: a Redlock hold of ''{0}'' could not be shown valid for half its lease of {1} ms for its"
                        + " caller; it is given up and the acquire tries again",
                name,
                leaseMillis);
        releaseQuietly();
        return false;
    }

    private RedlockNodes.Round await(CompletableFuture<RedlockNodes.Round> round) {
        long millis = ctx.nodes().commandTimeout().toMillis() + 1000;
        return ctx.runtime()
                .await()
                .reply(
                        round,
                        millis,
                        e -> e instanceof InterruptedException
                                ? new LockException(
                                        "interrupted while waiting for the Redlock nodes about lock '" + name + "'", e)
                                : new LockConnectionException(
                                        ctx.nodes().maskedUris(),
                                        "no answer within " + millis + " ms about lock '" + name + "'",
                                        e));
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
        return "RedlockLease[" + name + ", token " + token + ", " + state + "]";
    }
}
