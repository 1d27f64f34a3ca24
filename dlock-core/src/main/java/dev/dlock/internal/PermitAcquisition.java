package dev.dlock.internal;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.LockReplicationException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One acquire on the shared-lock model (semaphore permits, a read or write hold), run as an
 * asynchronous loop as the mutex's {@link Acquisition} is (docs/lock-family.md): try; if busy, join the name's wake-up channel and wait for Redis to
 * confirm it, then try-and-queue (FIFO, with an entry that expires unless refreshed); sleep until a
 * release grants the permits ({@code g <token> <wait id> <owner>}: taken, no further round trip),
 * until the earliest holder's lease may have run out, until the entry needs refreshing, or until the
 * deadline; a deadline or cancellation sends a last try that leaves the queue. A granted lease counts
 * from the sending of the last queueing try that found it busy (the grant ran after it), and no
 * acquire returns a lease with less than half its lease time left: one more try re-takes the permits
 * with a full lease. Any failure after a queueing try sends an owner-checked release, which also
 * leaves the queue. Only one command is in flight at a time.
 */
final class PermitAcquisition implements Waiting {
    private static final long FOREVER = Long.MAX_VALUE;
    private static final String TRY = "0";
    private static final String QUEUE = "1";
    private static final String LEAVE = "2";
    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(PermitAcquisition.class, "claimed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Acquirer shared;
    private final SharedLock kind;
    private final SemaphoreKeys keys;
    private final String owner;
    private final String permits;
    private final String kindArg;
    private final long leaseMillis;
    private final String leaseArg;
    private final String entryArg;
    private final long refreshNanos;
    private final boolean renewed;
    private final long deadline; // ticker nanos, or FOREVER
    private final CompletableFuture<RedisLease> result = new CompletableFuture<>();
    private volatile boolean claimed; // through CLAIMED: the first finish() wins
    private volatile boolean cancelled;
    private volatile boolean queued; // a queueing try was sent, so Redis may hold our queue entry
    private volatile long queuedSentAt; // send time of the last queueing try that found it busy
    private volatile WaitRoom.Waiter waiter;
    private String waitId;

    PermitAcquisition(
            Acquirer shared,
            SharedLock kind,
            String owner,
            String weight,
            String kindArg,
            long leaseMillis,
            boolean renewed,
            long waitNanos) {
        this.shared = shared;
        this.kind = kind;
        this.keys = kind.keys();
        this.owner = owner;
        this.permits = weight;
        this.kindArg = kindArg;
        this.leaseMillis = leaseMillis;
        this.leaseArg = shared.leaseTime.arg(leaseMillis);
        this.entryArg = shared.leaseTime.entryArg(leaseMillis);
        long refreshMillis = LeaseTime.entryMillis(leaseMillis) / 3;
        if (shared.checkValidity) {
            refreshMillis = Math.min(refreshMillis, leaseMillis / 3);
        }
        this.refreshNanos = TimeUnit.MILLISECONDS.toNanos(refreshMillis);
        this.renewed = renewed;
        long now = shared.ticker.nanos();
        this.deadline = waitNanos >= FOREVER - now ? FOREVER : now + waitNanos;
    }

    /** The outcome: the lease, null when the wait ran out, or the failure. */
    CompletableFuture<RedisLease> result() {
        return result;
    }

    void start() {
        if (deadline != FOREVER && deadline - shared.ticker.nanos() <= 0) {
            attempt(TRY); // a single try never queues
            return;
        }
        WaitRoom.Waiter w =
                shared.waitRoom.isEmpty() ? null : shared.waitRoom.joinIfSubscribed(channel(), owner, waitId(), this);
        if (w != null) {
            waiter = w;
            w.arm();
            attempt(QUEUE); // subscribed already: a grant can reach us, so queue on the first try
        } else {
            attempt(TRY);
        }
    }

    /** Gives up; {@link #result()} settles once nothing taken by this acquire is left unreleased. */
    void cancel() {
        cancelled = true;
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            w.nudge();
        }
    }

    @Override
    public CompletableFuture<Boolean> abortForClose() {
        cancelled = true;
        CompletableFuture<Boolean> left = kind.release(owner);
        finish(null, new LockException("the LockClient was closed while waiting for " + kind.describe()));
        return left;
    }

    private String channel() {
        return keys.lock().channel() + ':' + shared.owners.clientId();
    }

    private String waitId() {
        if (waitId == null) {
            waitId = shared.owners.newWait();
        }
        return waitId;
    }

    private boolean pastDeadline() {
        return deadline != FOREVER && shared.ticker.nanos() - deadline >= 0;
    }

    private void attempt(String requested) {
        String mode = requested;
        if (mode.equals(QUEUE) && (cancelled || pastDeadline())) {
            mode = LEAVE; // one last try that also takes us out of the queue
        }
        if (cancelled && !mode.equals(LEAVE)) {
            finish(null, cancellation());
            return;
        }
        if (mode.equals(QUEUE)) {
            queued = true;
        }
        String sent = mode;
        long sentAt = shared.ticker.nanos();
        String[] args = {owner, leaseArg, mode, entryArg, mode.equals(QUEUE) ? waitId() : "-", permits, kindArg};
        shared.scripts
                .evalGranting(kind.acquireScript(), keys.scriptKeys(), args)
                .whenComplete((replicated, error) -> {
                    if (error != null) {
                        finish(null, error);
                        return;
                    }
                    long reply = (Long) replicated.reply();
                    if (reply > 0 && !shared.scripts.acknowledged(replicated)) {
                        finish(
                                null,
                                shared.scripts.notAcknowledged(
                                        keys.record(), replicated, "the acquire of " + kind.describe()));
                    } else {
                        onReply(reply, sentAt, sent);
                    }
                });
    }

    private CancellationException cancellation() {
        return new CancellationException("acquire of " + kind.describe() + " was cancelled");
    }

    /**
     * {@code reply}: the token when taken, 0 when the script refused (a read hold beside a write hold
     * that is gone), {@code -2 - ms to the earliest holder's expiry} when busy.
     */
    private void onReply(long reply, long sentAt, String mode) {
        if (reply > 0) {
            queued = false;
            take(reply, sentAt);
            return;
        }
        if (reply == 0) {
            finish(null, new LockLostException(keys.name(), 0, "the hold this acquire was to be taken beside is gone"));
            return;
        }
        if (mode.equals(LEAVE)) {
            queued = false;
            finish(null, cancelled ? cancellation() : null);
            return;
        }
        if (mode.equals(QUEUE)) {
            queuedSentAt = sentAt;
        }
        WaitRoom.Waiter w = waiter;
        if (w != null && w.grantedToken() >= 0) {
            takeGranted(w.grantedToken()); // granted after this try ran
            return;
        }
        if (cancelled || pastDeadline()) {
            if (queued) {
                attempt(LEAVE);
            } else {
                finish(null, cancelled ? cancellation() : null);
            }
            return;
        }
        if (w == null) {
            WaitRoom.Waiter joined = shared.waitRoom.join(channel(), owner, waitId(), this);
            waiter = joined;
            joined.subscribed().whenComplete((ok, error) -> {
                if (error != null) {
                    finish(null, error);
                } else {
                    joined.arm();
                    attempt(QUEUE);
                }
            });
            return;
        }
        long untilExpiry = -2 - reply; // -1: no holder
        long sleep = untilExpiry >= 0 ? TimeUnit.MILLISECONDS.toNanos(untilExpiry) + 1_000_000L : refreshNanos;
        sleep = Math.min(sleep, refreshNanos);
        if (deadline != FOREVER) {
            sleep = Math.min(sleep, Math.max(0, deadline - shared.ticker.nanos()));
        }
        // The signal armed before this try: a grant or nudge during the try has already completed it.
        CompletableFuture<Boolean> signal = w.signalForWait();
        ScheduledFuture<?> timer =
                shared.scheduler.schedule(() -> signal.complete(Boolean.FALSE), sleep, TimeUnit.NANOSECONDS);
        signal.whenComplete((ok, error) -> {
            timer.cancel(false);
            if (w.grantedToken() >= 0) {
                takeGranted(w.grantedToken());
            } else {
                w.arm();
                attempt(QUEUE);
            }
        });
    }

    /** With {@code replicaAcks} a grant's write is not known to be on the replicas: a try re-takes it, acknowledged. */
    private void takeGranted(long token) {
        if (shared.scripts.waitsForReplicas()) {
            revalidate();
        } else {
            take(token, queuedSentAt);
        }
    }

    private void take(long token, long sentAt) {
        if (shared.checkValidity && !Validity.hasMargin(sentAt, leaseMillis, shared.ticker.nanos())) {
            revalidate();
            return;
        }
        RedisLease lease = shared.leases.open(keys.lock(), owner, token, leaseMillis, renewed, sentAt, kind);
        if (cancelled || kind.lifecycle().isClosed()) {
            lease.releaseQuietly();
            finish(null, cancelled ? cancellation() : new LockException("the LockClient was closed"));
        } else {
            finish(lease, null);
        }
    }

    /**
     * The hold is (or was) ours in Redis, but their validity as this client can prove it is under
     * the margin: one more try re-takes them with a full lease, or queues again. Past the deadline or
     * cancelled, they are released instead.
     */
    private void revalidate() {
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            w.clearGrant();
            w.arm();
        }
        if (cancelled || pastDeadline()) {
            kind.release(owner).whenComplete((ok, error) -> finish(null, cancelled ? cancellation() : error));
            return;
        }
        attempt(w != null ? QUEUE : TRY);
    }

    private void finish(RedisLease lease, Throwable error) {
        if (!CLAIMED.compareAndSet(this, false, true)) {
            if (lease != null) {
                lease.releaseQuietly(); // the attempt already ended (the client closed)
            }
            return;
        }
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            shared.waitRoom.leave(w);
        }
        if (error == null) {
            result.complete(lease);
            return;
        }
        RuntimeException failure = shared.scripts.translate(error, keys.record());
        if (failure instanceof LockConnectionException
                || failure instanceof LockReplicationException
                || queued
                || shared.scripts.waitsForReplicas()) {
            // As Acquisition: a try whose outcome is unknown may have taken permits or queued us; an
            // owner-checked release on the same connection undoes both.
            kind.release(owner).whenComplete((ok, e) -> {
                if (e != null) {
                    Log.LOG.log(
                            System.Logger.Level.WARNING,
                            "dlock could not undo an acquire of {0} whose outcome is unknown ({1}); a hold"
                                    + " it took or its queue entry ends when their lease or entry runs out",
                            keys.record(),
                            e.toString());
                }
            });
        }
        result.completeExceptionally(failure);
    }
}
