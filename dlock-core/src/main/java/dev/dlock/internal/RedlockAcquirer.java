package dev.dlock.internal;

import dev.dlock.LockConnectionException;
import dev.dlock.LockListener;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
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
 * counter of at least the token (at least a quorum of them), so that a later quorum meets one: when a
 * node that answered reported less, the token is written to every node ({@code redlock-fence.lua},
 * counter = max(counter, token)) and the acquire waits for those nodes' confirmations. This also heals
 * a node that came back empty. Tokens therefore increase from one hold to the next as long as the nodes
 * that had not answered the earlier acquire plus the nodes that lost their data since are at most
 * N − quorum (docs/redlock.md).
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

    private final RedlockContext ctx;

    RedlockAcquirer(RedlockContext ctx) {
        this.ctx = ctx;
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
        loop(name, keys, leaseMillis, renewed, end, FIRST_BACKOFF_NANOS, result);
        return result;
    }

    private void loop(
            String name,
            String[] keys,
            long leaseMillis,
            boolean renewed,
            long end,
            long backoff,
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
            if (end != Long.MAX_VALUE && now - end >= 0) {
                result.complete(null);
                return;
            }
            long cap = Math.min(
                    TimeUnit.MILLISECONDS.toNanos(250),
                    Math.max(TimeUnit.MILLISECONDS.toNanos(20), leaseMillis * 100_000L));
            long delay = ThreadLocalRandom.current().nextLong(backoff / 2, backoff + 1);
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
                                () -> loop(name, keys, leaseMillis, renewed, end, next, result),
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
     * holder's key expires (0 when unknown).
     */
    record Outcome(RedlockLease lease, long freeInNanos) {}

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
            return fence(round, keys, issued).thenApply(fenced -> {
                if (fenced && Validity.hasMargin(sent, leaseMillis, ctx.ticker().nanos())) {
                    long deadline = Validity.deadlineFrom(sent, leaseMillis);
                    return new Outcome(
                            new RedlockLease(ctx, name, keys, owner, issued, leaseMillis, renewed, deadline), 0);
                }
                releaseEverywhere(keys, owner);
                if (!fenced) {
                    throw new LockConnectionException(
                            ctx.nodes().maskedUris(),
                            "fewer than " + quorum + " nodes confirmed the fencing token " + issued + " of lock '"
                                    + name + "'; the hold was given up",
                            null);
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
     * Makes sure every node that answered the acquire (by the time it was decided) has a counter of at
     * least {@code token} before the acquire returns: at once when each of them reported it already
     * (the nodes that had not answered are brought up in the background); else after the write-back
     * ({@code counter = max(counter, token)}, sent to every node) was answered by each of them, at
     * least a quorum confirming it.
     */
    private CompletableFuture<Boolean> fence(RedlockNodes.Round round, String[] keys, long token) {
        boolean[] answered = new boolean[round.replies.length];
        boolean lagging = false;
        for (int i = 0; i < round.replies.length; i++) {
            if (round.replies[i] instanceof java.util.List<?> list) {
                answered[i] = true;
                long code = (Long) list.get(0);
                long counter = code != 0 ? (Long) list.get(1) : list.size() > 2 ? (Long) list.get(2) : 0;
                lagging |= counter < token;
            }
        }
        String[] fenceKey = {keys[1]};
        String[] args = {Long.toString(token)};
        if (!lagging) {
            if (round.answered < ctx.size()) {
                ctx.nodes().fanOut(RedlockScripts.FENCE, fenceKey, args, r -> false); // heals the others
            }
            return CompletableFuture.completedFuture(true);
        }
        return ctx.nodes()
                .fanOut(RedlockScripts.FENCE, fenceKey, args, r -> {
                    for (int i = 0; i < answered.length; i++) {
                        if (answered[i] && r.replies[i] == null) {
                            return false;
                        }
                    }
                    return true;
                })
                .thenApply(r -> confirmedAtLeast(r, token) >= ctx.quorum());
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
