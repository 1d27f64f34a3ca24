package dev.dlock.internal;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockReplicationException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One acquire, run as an asynchronous loop so that no thread blocks while it waits. Protocol:
 *
 * <ol>
 *   <li>Try once (one round trip: the uncontended path). When this client is still subscribed to
 *       the lock's channel from a recent wait, try-and-queue at once instead and go to step 3.
 *   <li>If busy and time is left, join the lock's wake-up channel and wait for Redis to confirm the
 *       subscription, then try again with "queue me": the script puts the owner id in the lock's
 *       FIFO queue with an expiry.
 *   <li>Sleep until a release hands the lock over ({@code g <token> <owner>}: the lock is ours, no
 *       further round trip), until the holder's remaining TTL runs out (an expiry publishes
 *       nothing), until the queue entry needs refreshing, or until the deadline.
 *   <li>On a plain wake or a timer, try-and-queue again. On the deadline or a cancellation, send a
 *       last try that leaves the queue, so no release hands the lock to someone who has gone.
 * </ol>
 *
 * <p>A handed-over lease's validity counts from the sending of the last try whose reply said busy:
 * that try ran before the release that granted the lock, so Redis keeps the key at least that long.
 * A waiter refreshes its queue entry at least every third of its lease time, so that validity is
 * normally most of the lease. Whatever the path, no acquire returns a hold with less than half of
 * its lease time left: a take that would leave less (a late hand-off message, a slow reply) sends
 * one more try, which re-takes the hold it already has in Redis with a full lease (or finds that it
 * lost it and waits on). Only one command is in flight at a time; a cancellation is seen at the next
 * step, and a lock taken by a cancelled attempt is released before the attempt settles. Any failure
 * after a queueing try sends an owner-checked release, which also takes the owner out of the queue,
 * so that no release hands the lock to an acquire that has gone.
 */
final class Acquisition implements Waiting {
    private static final long FOREVER = Long.MAX_VALUE;
    private static final String TRY = "0";
    private static final String QUEUE = "1";
    private static final String LEAVE = "2";
    private static final VarHandle SETTLED;
    private static final VarHandle CLAIMED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            SETTLED = lookup.findVarHandle(Acquisition.class, "settled", CompletableFuture.class);
            CLAIMED = lookup.findVarHandle(Acquisition.class, "claimed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Acquirer shared; // what the acquisitions of this client share
    private final LockKeys keys;
    private final String owner;
    private final long leaseMillis;
    private final String leaseArg;
    private final String entryArg;
    private final long refreshNanos;
    private final boolean checkValidity; // off only for Controls.expiredHandoff
    private String waitId; // made when it first queues
    private final String[] scriptKeys;
    private String channel; // this client's wake-up channel for this lock, built when first needed
    private final boolean renewed;
    private final Gate gate;
    private final Turn turn; // told the outcome through gate.actorDone
    private final long deadline; // ticker nanos, or FOREVER
    // Created only by cancel(); finish() and cancel() each write their side, then read the other's.
    private volatile CompletableFuture<Void> settled;
    private volatile boolean finished;
    private volatile boolean claimed; // through CLAIMED: the first finish() wins
    private volatile boolean cancelled;
    private volatile boolean queued; // a queueing try was sent, so Redis may hold our queue entry
    private volatile long queuedSentAt; // send time of the last queueing try that found the lock busy
    private WaitRoom.Waiter waiter;
    private ScheduledFuture<?> timer;

    Acquisition(Acquirer shared, LockKeys keys, Turn turn, long waitNanos, Gate gate) {
        this.shared = shared;
        this.keys = keys;
        this.owner = turn.owner;
        this.leaseMillis = turn.leaseMillis;
        this.leaseArg = shared.leaseTime.arg(leaseMillis);
        this.entryArg = shared.leaseTime.entryArg(leaseMillis);
        this.checkValidity = shared.checkValidity;
        long refreshMillis = LeaseTime.entryMillis(leaseMillis) / 3;
        if (checkValidity) {
            refreshMillis = Math.min(refreshMillis, leaseMillis / 3);
        }
        this.refreshNanos = TimeUnit.MILLISECONDS.toNanos(refreshMillis);
        this.scriptKeys = keys.scriptKeys();
        this.renewed = turn.renewed;
        this.gate = gate;
        this.turn = turn;
        long now = shared.ticker.nanos();
        this.deadline = waitNanos >= FOREVER - now ? FOREVER : now + waitNanos;
    }

    /** Starts the loop; its outcome (the lease, null when the wait ran out, or the failure) goes to the gate. */
    void start() {
        if (deadline != FOREVER && deadline - shared.ticker.nanos() <= 0) {
            attempt(TRY); // a single try never queues
            return;
        }
        waiter = shared.waitRoom.isEmpty() ? null : shared.waitRoom.joinIfSubscribed(channel(), owner, waitId(), this);
        if (waiter != null) {
            waiter.arm();
            attempt(QUEUE); // subscribed already: a hand-off can reach us, so queue on the first try
        } else {
            attempt(TRY);
        }
    }

    /** Gives up; the returned future completes once no lock taken by this attempt is left. */
    CompletableFuture<Void> cancel() {
        cancelled = true;
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            w.nudge();
        }
        SETTLED.compareAndSet(this, null, new CompletableFuture<Void>());
        CompletableFuture<Void> s = settled;
        if (finished) {
            s.complete(null);
        }
        return s;
    }

    /**
     * Ends the wait because the client is closing: leaves the queue (releasing a lock handed over
     * meanwhile) and fails the acquire.
     *
     * @return the leave's reply
     */
    @Override
    public CompletableFuture<Boolean> abortForClose() {
        cancelled = true;
        CompletableFuture<Boolean> left = shared.leases.release(keys, owner);
        finish(null, new LockException("the LockClient was closed while waiting for lock '" + keys.name() + "'"));
        return left;
    }

    private String channel() {
        if (channel == null) {
            channel = keys.channel() + ':' + shared.owners.clientId();
        }
        return channel;
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
        String[] args = mode.equals(QUEUE)
                ? new String[] {owner, leaseArg, mode, entryArg, waitId()}
                : new String[] {owner, leaseArg, mode, entryArg};
        shared.scripts.evalGranting(Scripts.ACQUIRE, scriptKeys, args).whenComplete((replicated, error) -> {
            if (error != null) {
                finish(null, error);
                return;
            }
            long reply = (Long) replicated.reply();
            if (reply > 0 && !shared.scripts.acknowledged(replicated)) {
                // Taken on the master only: a failover now would lose it. finish() undoes it.
                finish(
                        null,
                        shared.scripts.notAcknowledged(
                                keys.lock(), replicated, "the acquire of '" + keys.name() + "'"));
            } else {
                onReply(reply, sentAt, sent);
            }
        });
    }

    private CancellationException cancellation() {
        return new CancellationException("acquire of '" + keys.name() + "' was cancelled");
    }

    /** {@code reply}: the token when taken, {@code -2 - holder's PTTL} when busy (acquire.lua). */
    private void onReply(long reply, long sentAt, String mode) {
        if (reply > 0) {
            queued = false;
            take(reply, sentAt);
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
        if (waiter != null && waiter.grantedToken() >= 0) {
            takeGranted(waiter.grantedToken()); // handed over after this try ran
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
        if (waiter == null) {
            waiter = shared.waitRoom.join(channel(), owner, waitId(), this);
            waiter.subscribed().whenComplete((ok, error) -> {
                if (error != null) {
                    finish(null, error);
                } else {
                    waiter.arm();
                    attempt(QUEUE);
                }
            });
            return;
        }
        long holderTtl = -2 - reply;
        // Sleep until handed the lock or woken, until the holder's lease may have run out, until the
        // queue entry needs refreshing, or until the deadline.
        long sleep = holderTtl > 0 ? TimeUnit.MILLISECONDS.toNanos(holderTtl) + 1_000_000L : 1_000_000L;
        sleep = Math.min(sleep, refreshNanos);
        if (deadline != FOREVER) {
            sleep = Math.min(sleep, Math.max(0, deadline - shared.ticker.nanos()));
        }
        // The signal armed before this try: a hand-off or wake during the try has already completed it.
        CompletableFuture<Boolean> signal = waiter.signalForWait();
        timer = shared.scheduler.schedule(() -> signal.complete(Boolean.FALSE), sleep, TimeUnit.NANOSECONDS);
        signal.whenComplete((ok, error) -> {
            timer.cancel(false);
            if (waiter.grantedToken() >= 0) {
                takeGranted(waiter.grantedToken());
            } else {
                waiter.arm();
                attempt(QUEUE);
            }
        });
    }

    /**
     * Takes a lock another client's release handed over. With {@code replicaAcks} the grant's write is
     * not known to be on the replicas, so one more try re-takes the hold and is acknowledged itself:
     * replication keeps the master's order, so replicas that have the re-take have the grant too.
     */
    private void takeGranted(long token) {
        if (shared.scripts.waitsForReplicas()) {
            revalidate();
        } else {
            take(token, queuedSentAt);
        }
    }

    private void take(long token, long sentAt) {
        if (checkValidity && !Validity.hasMargin(sentAt, leaseMillis, shared.ticker.nanos())) {
            revalidate();
            return;
        }
        RedisLease lease = shared.leases.open(keys, owner, token, leaseMillis, renewed, sentAt, gate);
        if (cancelled) {
            lease.releaseQuietly();
            finish(null, cancellation());
        } else {
            finish(lease, null);
        }
    }

    /**
     * The lock is (or was) ours in Redis, but its validity as this client can prove it is under the
     * margin. One more try re-takes it with a full lease if it is still ours (granted or held), or
     * takes it afresh if it is free, or queues again if another took it meanwhile. Past the deadline or
     * cancelled, it is released instead: the wait ends without the lock.
     */
    private void revalidate() {
        if (waiter != null) {
            waiter.clearGrant();
            waiter.arm();
        }
        if (cancelled || pastDeadline()) {
            shared.leases
                    .release(keys, owner)
                    .whenComplete((ok, error) -> finish(null, cancelled ? cancellation() : error));
            return;
        }
        attempt(waiter != null ? QUEUE : TRY);
    }

    private void finish(RedisLease lease, Throwable error) {
        if (!CLAIMED.compareAndSet(this, false, true)) {
            if (lease != null) {
                lease.releaseQuietly(); // the attempt already ended (the client closed)
            }
            return;
        }
        if (waiter != null) {
            shared.waitRoom.leave(waiter);
        }
        if (error != null) {
            RuntimeException failure = shared.scripts.translate(error, keys.lock());
            if (failure instanceof LockConnectionException
                    || failure instanceof LockReplicationException
                    || queued
                    || shared.scripts.waitsForReplicas()) {
                // A try that timed out may have reached Redis and taken the lock, or queued us, after all
                // (a timeout says nothing about the server); and an earlier queueing try left an entry
                // that a release would hand the lock to. An owner-checked release, sent on the same
                // connection after the try, undoes both (it only deletes, so it runs even out of memory).
                // A take too few replicas acknowledged is undone the same way, and so is any failure of a
                // replicated call: it may come from the wait after the script ran (WAITAOF refused by a
                // server older than 7.2, say), so the script's outcome is unknown.
                shared.leases.releaseUnknown(keys, owner);
            }
            gate.actorDone(turn, null, failure);
        } else {
            gate.actorDone(turn, lease, null); // a turn that no longer wants the lease releases it
        }
        finished = true;
        CompletableFuture<Void> s = settled;
        if (s != null) {
            s.complete(null);
        }
    }
}
