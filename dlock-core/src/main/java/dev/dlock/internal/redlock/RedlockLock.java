package dev.dlock.internal.redlock;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.ThreadLocking;
import dev.dlock.internal.util.ValidHoldWait;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

/**
 * A Redlock lock: the {@link DistributedLock} contract over independent masters ({@link
 * RedlockAcquirer}). A thread's {@code lock()} takes a watchdog-renewed hold under a lease owner id of
 * its own; its re-entries are counted in the client's {@link ThreadHolds} ({@link ThreadLocking}), so
 * only the first {@code lock()} and the last {@code unlock()} touch the nodes. Waiting polls (see {@link RedlockAcquirer}): there is no FIFO hand-off. Thread-safe;
 * a hold's count is only touched by its thread.
 */
final class RedlockLock extends ThreadLocking {

    private final RedlockContext ctx;
    private final RedlockAcquirer acquirer;
    private final String name;
    private final String[] keys;

    RedlockLock(RedlockContext ctx, RedlockAcquirer acquirer, String keyPrefix, String name, ThreadHolds holds) {
        super(holds, ThreadHolds.MUTEX, name);
        this.ctx = ctx;
        this.acquirer = acquirer;
        this.name = name;
        this.keys = RedlockScripts.keys(keyPrefix, name);
    }

    @Override
    public String name() {
        return name;
    }

    // ---- thread-owned ----------------------------------------------------------------------

    /** A re-entry renews the hold if need be ({@link RedlockLease#confirmForReentry}). */
    @Override
    protected RedlockLease takeForThread(long waitNanos, boolean interruptible) throws InterruptedException {
        return await(ctx.leaseMillis(), true, waitNanos, interruptible);
    }

    // ---- lease-owned -----------------------------------------------------------------------

    @Override
    protected Lease awaitLease(long waitNanos, long leaseMillis, boolean renewed) throws InterruptedException {
        return await(leaseMillis, renewed, waitNanos, true);
    }

    @Override
    protected long clientLeaseMillis() {
        return ctx.leaseMillis();
    }

    @Override
    protected String waitedFor() {
        return "lock '" + name + "'";
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        ctx.lifecycle().checkOpen();
        CompletableFuture<RedlockLease> inner = acquirer.acquire(name, keys, ctx.leaseMillis(), true, w.toNanos());
        CompletableFuture<Lease> future = new CompletableFuture<>();
        inner.whenCompleteAsync(
                (lease, error) -> {
                    if (error != null) {
                        future.completeExceptionally(unwrap(error));
                    } else if (!future.complete(lease) && lease != null) {
                        lease.releaseQuietly(); // the caller cancelled meanwhile
                    }
                },
                ctx.callbacks().executor());
        future.whenComplete((lease, error) -> {
            if (error instanceof CancellationException) {
                inner.cancel(false);
            }
        });
        return future;
    }

    /**
     * Runs acquires and waits for them, until one returns a hold valid for half its lease as this thread
     * sees it ({@link ValidHoldWait}, {@link RedlockLease#keepForCaller(boolean)}), or the wait runs out (null).
     */
    private RedlockLease await(long leaseMillis, boolean renewed, long waitNanos, boolean interruptible)
            throws InterruptedException {
        return ValidHoldWait.await(
                ctx.ticker(), true, waitNanos, wait -> awaitOne(leaseMillis, renewed, wait, interruptible));
    }

    /**
     * Runs an acquire and waits for it. An interrupt (when {@code interruptible}) cancels the wait; a
     * hold the attempt under way takes anyway is released by the acquirer.
     */
    private RedlockLease awaitOne(long leaseMillis, boolean renewed, long waitNanos, boolean interruptible)
            throws InterruptedException {
        ctx.lifecycle().checkOpen();
        CompletableFuture<RedlockLease> wait = acquirer.acquire(name, keys, leaseMillis, renewed, waitNanos);
        return ctx.runtime()
                .await()
                .acquire(
                        wait,
                        interruptible,
                        cancelled -> cancelled.cancel(false),
                        RedlockLock::unwrap,
                        cancelled -> new IllegalStateException(
                                "the Redlock LockClient for " + ctx.nodes().maskedUris() + " is closed", cancelled));
    }

    private static RuntimeException unwrap(Throwable error) {
        while (error instanceof java.util.concurrent.CompletionException && error.getCause() != null) {
            error = error.getCause();
        }
        return error instanceof RuntimeException r ? r : new LockException("acquire failed: " + error, error);
    }

    // ---- inspection ------------------------------------------------------------------------

    @Override
    public boolean isLocked() {
        return info().isLocked();
    }

    @Override
    public LockInfo info() {
        ctx.lifecycle().checkOpen();
        Snapshot s = read(ctx, keys, name);
        return new LockInfo(name, s.holder(), s.remaining(), s.token());
    }

    /**
     * What a quorum of nodes says of a lock: the holder if one owner id is on at least a quorum of
     * them, with the time for which a quorum still has it; the highest fencing counter any node
     * reported.
     */
    record Snapshot(Optional<String> holder, Duration remaining, long token) {}

    static Snapshot read(RedlockContext ctx, String[] keys, String name) {
        RedlockNodes.Round round = ctx.runtime()
                .await()
                .reply(
                        ctx.nodes().fanOut(RedlockScripts.INFO, keys, new String[0], r -> false),
                        ctx.nodes().commandTimeout().toMillis() + 1000,
                        e -> e instanceof InterruptedException
                                ? new LockException("interrupted while reading lock '" + name + "'", e)
                                : new LockConnectionException(
                                        ctx.nodes().maskedUris(), "no answer about lock '" + name + "'", e));
        if (round.answered < ctx.quorum()) {
            RuntimeException failure = round.firstFailure();
            if (failure != null && !(failure instanceof LockConnectionException)) {
                throw failure;
            }
            throw new LockConnectionException(
                    ctx.nodes().maskedUris(),
                    "Redlock needs " + ctx.quorum() + " of " + ctx.size() + " nodes to read lock '" + name + "', only "
                            + round.answered + " answered (" + round.failures() + ")",
                    failure);
        }
        Map<String, List<Long>> ttlsByOwner = new HashMap<>();
        long token = 0;
        for (Object reply : round.replies) {
            if (reply instanceof List<?> list && list.size() == 3) {
                String owner = (String) list.get(0);
                long pttl = (Long) list.get(1);
                token = Math.max(token, (Long) list.get(2));
                if (!owner.isEmpty()) {
                    ttlsByOwner
                            .computeIfAbsent(owner, o -> new java.util.ArrayList<>())
                            .add(pttl < 0 ? Long.MAX_VALUE : pttl);
                }
            }
        }
        for (Map.Entry<String, List<Long>> e : ttlsByOwner.entrySet()) {
            List<Long> ttls = e.getValue();
            if (ttls.size() >= ctx.quorum()) {
                ttls.sort(java.util.Comparator.reverseOrder());
                long quorumTtl = ttls.get(ctx.quorum() - 1); // a quorum has it for at least this long
                return new Snapshot(Optional.of(e.getKey()), Duration.ofMillis(quorumTtl), token);
            }
        }
        return new Snapshot(Optional.empty(), Duration.ZERO, token);
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name + ", Redlock]";
    }
}
