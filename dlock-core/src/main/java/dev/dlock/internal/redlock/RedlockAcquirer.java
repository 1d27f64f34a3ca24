package dev.dlock.internal.redlock;

import dev.dlock.LockConnectionException;
import dev.dlock.LockListener;
import dev.dlock.internal.util.Validity;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Takes Redlock holds: one attempt on every node at once, and the wait that repeats attempts.
 *
 * <p>An attempt ({@link #attempt}) sends {@code redlock-acquire.lua} with a new owner id to every node
 * and decides when every node answered or failed (each within the command timeout), or earlier when
 * so many nodes answered "busy" that no quorum can grant. It is taken only if a quorum granted, fewer than a
 * quorum failed, and the hold still has at least half its lease time of validity, counted from before
 * the first send less the drift allowance ({@link Validity}); anything else releases it on every node.
 * If fewer than a quorum of nodes answered at all, no wait can help: it fails with {@link
 * LockConnectionException}.
 *
 * <p>Fencing: each node that grants increments its own counter for the lock; the token is the largest
 * of the granting nodes' counters. Before the acquire returns, every node that answered it must hold a
 * counter of at least the token, so that a later quorum meets one: when a node that answered reported
 * less, the token is written to every node ({@code redlock-fence.lua}, counter = max(counter, token))
 * and the acquire waits until each node that reported less confirmed it. A write-back that such a node
 * did not confirm (a dropped connection, a reply later than the command timeout) is sent again, up to
 * {@value #WRITE_BACKS} rounds {@value #WRITE_BACK_PAUSE_MILLIS} ms apart and only while the hold keeps
 * half its lease; failing that, the hold is given up on every node and the wait tries again (once more
 * past its end; a second such failure there throws {@link LockConnectionException}). The write-back
 * also heals a node that came back empty. Tokens therefore increase from one hold to the next as long
 * as the nodes that had not answered the earlier acquire plus the nodes that lost their data since are
 * fewer than a quorum (docs/redlock.md).
 *
 * <p>The wait ({@link #acquire}) polls: Redlock has no hand-off across independent masters (there is
 * no one queue to take the next waiter from), and a subscription per node would tell of a release on
 * one node without saying whether a quorum is free. Between attempts it sleeps a jittered, doubling
 * backoff (5 ms up to a tenth of the lease, at most 250 ms, at least 20 ms), never past the holder's
 * expiry as the busy nodes report it, and never past the wait's end, where one last attempt is made.
 * Thread-safe.
 */
final class RedlockAcquirer {
    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** How many write-back rounds a hold gets before it is given up. */
    static final int WRITE_BACKS = 3;
    /** The pause before a write-back round is sent again: a dropped connection gets time to reconnect. */
    static final long WRITE_BACK_PAUSE_MILLIS = 10;

    private final RedlockContext ctx;
    private final boolean partialFence;
    private final boolean minorityRenewal;

    /**
     * Creates the acquirer of one client.
     *
     * @param ctx the client's parts
     * @param partialFence true only for the negative control {@code redlock-partial-fence} (Controls):
     *     the write-back is accepted after one round once a quorum of nodes confirmed it, whichever nodes
     *     answered the acquire
     * @param minorityRenewal true only for the negative control {@code redlock-minority-renewal}
     *     (Controls): the leases it makes renew on any one node's confirmation
     */
    RedlockAcquirer(RedlockContext ctx, boolean partialFence, boolean minorityRenewal) {
        this.ctx = ctx;
        this.partialFence = partialFence;
        this.minorityRenewal = minorityRenewal;
    }

    /**
     * Takes a hold, trying until {@code waitNanos} have passed ({@link Long#MAX_VALUE}: forever). The
     * future completes with the lease, with null when the lock stayed busy, or exceptionally (a node
     * quorum unreachable, a server error); cancelling it ends the wait, and a hold taken meanwhile is
     * released.
     */
    CompletableFuture<RedlockLease> acquire(
            String name, String[] keys, long leaseMillis, boolean renewed, long waitNanos) {
        long start = ctx.ticker().nanos();
        long end = waitNanos >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : start + waitNanos;
        CompletableFuture<RedlockLease> result = new CompletableFuture<>();
        ctx.waits().add(result);
        result.whenComplete((lease, error) -> {
            ctx.waits().remove(result);
            LockListener.Outcome outcome = result.isCancelled()
                    ? LockListener.Outcome.CANCELLED
                    : error != null
                            ? LockListener.Outcome.FAILED
                            : lease == null ? LockListener.Outcome.BUSY : LockListener.Outcome.ACQUIRED;
            ctx.events().acquire(name, outcome, ctx.ticker().nanos() - start);
        });
        loop(name, keys, leaseMillis, renewed, end, FIRST_BACKOFF_NANOS, false, result);
        return result;
    }

    private void loop(
            String name,
            String[] keys,
            long leaseMillis,
            boolean renewed,
            long end,
            long backoff,
            boolean extraTried,
            CompletableFuture<RedlockLease> result) {
        if (result.isDone()) {
            return;
        }
        attempt(name, keys, leaseMillis, renewed).whenComplete((outcome, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            if (outcome.lease() != null) {
                outcome.lease().start();
                ctx.events().started(name);
                if (!result.complete(outcome.lease())) {
                    outcome.lease().releaseQuietly(); // cancelled or closed meanwhile
                }
                return;
            }
            long now = ctx.ticker().nanos();
            boolean over = end != Long.MAX_VALUE && now - end >= 0;
            if (over && outcome.unfenced() != null && !extraTried) {
                // a hold given up for its write-back is no sign of contention: one more attempt, at once
                loop(name, keys, leaseMillis, renewed, end, backoff, true, result);
                return;
            }
            if (over) {
                if (outcome.unfenced() != null) {
                    result.completeExceptionally(outcome.unfenced());
                } else {
                    result.complete(null);
                }
                return;
            }
            long cap = Math.min(
                    TimeUnit.MILLISECONDS.toNanos(250),
                    Math.max(TimeUnit.MILLISECONDS.toNanos(20), leaseMillis * 100_000L));
            long delay = ctx.runtime().random().nextLong(backoff / 2, backoff + 1);
            if (outcome.freeInNanos() > 0) {
                delay = Math.min(delay, outcome.freeInNanos());
            }
            if (end != Long.MAX_VALUE) {
                delay = Math.min(delay, end - now);
            }
            long next = Math.min(cap, backoff * 2);
            try {
                ctx.timer()
                        .schedule(
                                () -> loop(name, keys, leaseMillis, renewed, end, next, extraTried, result),
                                Math.max(0, delay),
                                TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                result.completeExceptionally(new IllegalStateException(
                        "the Redlock LockClient for " + ctx.nodes().maskedUris() + " is closed"));
            }
        });
    }

    /**
     * What one attempt ended with: the lease, or null (busy) with how soon the busy nodes said the
     * holder's key expires (0 when unknown), or null with why a quorum's grant was given up because a
     * node that answered did not confirm the fencing write-back ({@code unfenced}, else null).
     */
    record Outcome(RedlockLease lease, long freeInNanos, LockConnectionException unfenced) {
        Outcome(RedlockLease lease, long freeInNanos) {
            this(lease, freeInNanos, null);
        }
    }

    /** One attempt on every node, with a new owner id; see the class comment. */
    CompletableFuture<Outcome> attempt(String name, String[] keys, long leaseMillis, boolean renewed) {
        String owner = ctx.owners().newLease();
        int quorum = ctx.quorum();
        long sent = ctx.ticker().nanos();
        String[] args = {owner, Long.toString(leaseMillis)};
        return ctx.nodes()
                .fanOut(
                        RedlockScripts.ACQUIRE,
                        keys,
                        args,
                        // a success waits for every node (each within the command timeout), so that every
                        // node that can answer is fenced; a busy outcome is decided as soon as it is certain
                        r -> r.answered >= quorum && granted(r) + r.pending() < quorum)
                .thenCompose(round -> decide(round, name, keys, owner, leaseMillis, renewed, sent));
    }

    private CompletableFuture<Outcome> decide(
            RedlockNodes.Round round,
            String name,
            String[] keys,
            String owner,
            long leaseMillis,
            boolean renewed,
            long sent) {
        int quorum = ctx.quorum();
        int granted = granted(round);
        long token = 0;
        long freeIn = Long.MAX_VALUE;
        for (Object reply : round.replies) {
            if (reply instanceof java.util.List<?> list && list.size() >= 2) {
                long code = (Long) list.get(0);
                long value = (Long) list.get(1);
                if (code != 0) {
                    token = Math.max(token, value);
                } else if (value > 0) {
                    freeIn = Math.min(freeIn, TimeUnit.MILLISECONDS.toNanos(value));
                }
            }
        }
        long freeInNanos = freeIn == Long.MAX_VALUE ? 0 : freeIn;
        if (granted >= quorum
                && Validity.hasMargin(sent, leaseMillis, ctx.ticker().nanos())) {
            long issued = token;
            return fence(round, keys, issued, sent, leaseMillis).thenApply(missing -> {
                if (missing == null
                        && Validity.hasMargin(sent, leaseMillis, ctx.ticker().nanos())) {
                    long deadline = Validity.deadlineFrom(sent, leaseMillis);
                    return new Outcome(
                            new RedlockLease(
                                    ctx, name, keys, owner, issued, leaseMillis, renewed, deadline, minorityRenewal),
                            0);
                }
                releaseEverywhere(keys, owner);
                if (missing != null) {
                    return new Outcome(
                            null,
                            0,
                            new LockConnectionException(
                                    ctx.nodes().maskedUris(),
                                    "a node that answered the acquire of lock '" + name
                                            + "' did not confirm its fencing token " + issued + " ("
                                            + missing + "); the hold was given up",
                                    null));
                }
                return new Outcome(null, 0);
            });
        }
        if (granted > 0 || round.pending() > 0) {
            releaseEverywhere(keys, owner); // a node that has not answered yet may still grant
        }
        int answered = round.answered;
        RuntimeException failure = round.firstFailure();
        if (failure != null && !(failure instanceof LockConnectionException)) {
            return CompletableFuture.failedFuture(failure); // a server error, such as WRONGTYPE: no wait helps
        }
        if (answered < quorum && round.pending() == 0) {
            return CompletableFuture.failedFuture(new LockConnectionException(
                    ctx.nodes().maskedUris(),
                    "Redlock needs " + quorum + " of " + ctx.size() + " nodes for lock '" + name + "', only " + answered
                            + " answered (" + round.failures() + ")",
                    failure));
        }
        return CompletableFuture.completedFuture(new Outcome(null, freeInNanos));
    }

    /**
     * Makes sure every node that answered the acquire has a counter of at least {@code token} before the
     * acquire returns: at once when each of them reported it already (the nodes that had not answered
     * are brought up in the background); else by the write-back (see the class comment). Completes with
     * null once every one of them has it, else with the failures of those that did not confirm it.
     */
    private CompletableFuture<String> fence(
            RedlockNodes.Round round, String[] keys, long token, long sent, long leaseMillis) {
        boolean[] behind = new boolean[round.replies.length];
        boolean[] answered = new boolean[round.replies.length];
        boolean lagging = false;
        for (int i = 0; i < round.replies.length; i++) {
            if (round.replies[i] instanceof java.util.List<?> list) {
                answered[i] = true;
                long code = (Long) list.get(0);
                long counter = code != 0 ? (Long) list.get(1) : list.size() > 2 ? (Long) list.get(2) : 0;
                behind[i] = counter < token;
                lagging |= behind[i];
            }
        }
        String[] fenceKey = {keys[1]};
        String[] args = {Long.toString(token)};
        if (!lagging) {
            if (round.answered < ctx.size()) {
                ctx.nodes().fanOut(RedlockScripts.FENCE, fenceKey, args, r -> false); // heals the others
            }
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<String> done = new CompletableFuture<>();
        // the negative control waits for every node that answered and then counts confirmations
        writeBack(fenceKey, args, token, partialFence ? answered : behind, 1, sent, leaseMillis, done);
        return done;
    }

    /**
     * One write-back round to every node, decided once each node in {@code behind} answered or failed;
     * sent again for those that did not confirm (see the class comment).
     */
    private void writeBack(
            String[] fenceKey,
            String[] args,
            long token,
            boolean[] behind,
            int sentRounds,
            long sent,
            long leaseMillis,
            CompletableFuture<String> done) {
        ctx.nodes()
                .fanOut(RedlockScripts.FENCE, fenceKey, args, r -> {
                    for (int i = 0; i < behind.length; i++) {
                        if (behind[i] && r.replies[i] == null) {
                            return false;
                        }
                    }
                    return true;
                })
                .thenAccept(r -> {
                    if (partialFence) { // the negative control: a bare quorum of confirmations is enough
                        done.complete(confirmedAtLeast(r, token) >= ctx.quorum() ? null : r.failures());
                        return;
                    }
                    boolean[] still = new boolean[behind.length];
                    java.util.List<String> missing = new java.util.ArrayList<>();
                    for (int i = 0; i < behind.length; i++) {
                        if (behind[i] && !(r.replies[i] instanceof Long value && value >= token)) {
                            still[i] = true;
                            missing.add(
                                    r.replies[i] instanceof RuntimeException e
                                            ? e.getMessage()
                                            : "node " + i + " answered " + r.replies[i]);
                        }
                    }
                    if (missing.isEmpty()) {
                        done.complete(null);
                    } else if (sentRounds < WRITE_BACKS
                            && Validity.hasMargin(
                                    sent, leaseMillis, ctx.ticker().nanos())) {
                        try {
                            ctx.timer()
                                    .schedule(
                                            () -> writeBack(
                                                    fenceKey,
                                                    args,
                                                    token,
                                                    still,
                                                    sentRounds + 1,
                                                    sent,
                                                    leaseMillis,
                                                    done),
                                            WRITE_BACK_PAUSE_MILLIS,
                                            TimeUnit.MILLISECONDS);
                        } catch (java.util.concurrent.RejectedExecutionException e) {
                            done.complete("the client is closed; " + String.join("; ", missing));
                        }
                    } else {
                        done.complete(sentRounds + " write-backs: " + String.join("; ", missing));
                    }
                })
                .exceptionally(e -> {
                    done.completeExceptionally(e);
                    return null;
                });
    }

    private static int confirmedAtLeast(RedlockNodes.Round round, long token) {
        int n = 0;
        for (Object reply : round.replies) {
            if (reply instanceof Long value && value >= token) {
                n++;
            }
        }
        return n;
    }

    private static int granted(RedlockNodes.Round round) {
        int n = 0;
        for (Object reply : round.replies) {
            if (reply instanceof java.util.List<?> list && !list.isEmpty() && (Long) list.get(0) != 0) {
                n++;
            }
        }
        return n;
    }

    /** The owner-checked delete on every node, not waited for: what an attempt that did not hold leaves. */
    private void releaseEverywhere(String[] keys, String owner) {
        ctx.nodes().fanOut(RedlockScripts.RELEASE, RedlockScripts.lockKey(keys), new String[] {owner}, r -> false);
    }
}
