package dev.dlock.internal.wait;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockReplicationException;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.mutex.Acquisition;
import dev.dlock.internal.util.LeaseTime;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Validity;
import dev.dlock.spi.Replicated;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The loop every acquire that waits in a Redis FIFO queue runs, asynchronously so that no thread
 * blocks while it waits: the mutex's {@link Acquisition} and the shared-lock model's {@link
 * PermitAcquisition} (docs/waiting.md, docs/lock-family.md). Protocol:
 *
 * <ol>
 *   <li>Try once (one round trip: the uncontended path). When this client is still subscribed to
 *       the name's channel from a recent wait, try-and-queue at once instead and go to step 3.
 *   <li>If busy and time is left, join the name's wake-up channel and wait for Redis to confirm the
 *       subscription, then try again with "queue me": the script puts the owner id in the name's
 *       FIFO queue with an entry that expires unless refreshed.
 *   <li>Sleep until a release grants the hold ({@code g <token> <wait id> <owner>}: taken, no further
 *       round trip), until the holder's lease may have run out (an expiry publishes nothing), until
 *       the queue entry needs refreshing, or until the deadline.
 *   <li>On a plain wake or a timer, try-and-queue again. On the deadline or a cancellation, send a
 *       last try that leaves the queue, so no release grants the hold to someone who has gone.
 * </ol>
 *
 * <p>Each queueing try names itself ({@code <wait id>.<try>}, the try's number in this acquisition) in
 * the queue entry it writes, and a grant names the try whose entry it consumed. A grant is taken on
 * the message's word only if it names the last queueing try whose reply said busy: that try ran before
 * the release that granted it, so Redis keeps the hold at least a lease from the try's sending, and the
 * granted lease's validity counts from there. A grant naming an earlier try is stale: a later try found
 * the lock busy after it, so the hold it granted had expired (and may be another's now); it is dropped
 * and the waiter tries again. Taking it would return a hold that another client may have, with a lower
 * token (StaleGrantContract). A waiter
 * refreshes its entry at least every third of its lease time, so that validity is normally most of
 * the lease. Whatever the path, no acquire returns a hold with less than half its lease time left: a
 * take that would leave less sends one more try, which re-takes the hold it already has with a full
 * lease (or finds that it lost it and waits on). With {@code replicaAcks} a grant is re-taken the same
 * way, acknowledged. Only one command is in flight at a time; a cancellation is seen at the next step,
 * and a hold taken by a cancelled attempt is released before the attempt settles. Any failure whose
 * outcome in Redis is unknown, or after a queueing try, sends an owner-checked release, which also
 * takes the owner out of the queue.
 *
 * <p>A subclass says what one try sends, how long a busy reply lets it sleep, how a hold is opened,
 * released and undone, and where the outcome goes.
 */
public abstract class QueuedAcquisition implements AbortableWait {
    static final long FOREVER = Long.MAX_VALUE;
    static final String TRY = "0";
    public static final String QUEUE = "1";
    static final String LEAVE = "2";
    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(QueuedAcquisition.class, "claimed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    protected final AcquireContext shared; // what the acquisitions of this client share
    public final String owner;
    public final long leaseMillis;
    public final String leaseArg;
    public final String entryArg;
    public final long refreshNanos;
    public final boolean renewed;
    final long deadline; // ticker nanos, or FOREVER
    private volatile boolean claimed; // through CLAIMED: the first finish() wins
    public volatile boolean cancelled;
    volatile boolean queued; // a queueing try was sent, so Redis may hold our queue entry
    private volatile long queuedSentAt; // send time of the last queueing try that found it busy
    private volatile long busyTry; // that try's number (from 1): the only one whose grant is taken
    private long queueTries; // queueing tries sent; one command is in flight at a time
    volatile WaitRoom.Waiter waiter;
    private String waitId; // made when it first queues
    private String channel; // this client's wake-up channel for this name, built when first needed

    public QueuedAcquisition(AcquireContext shared, String owner, long leaseMillis, boolean renewed, long waitNanos) {
        this.shared = shared;
        this.owner = owner;
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

    /** Sends one try in {@code mode} ({@code waitId} or {@code "-"}); the reply is the script's. */
    protected abstract CompletableFuture<Replicated> send(String mode, String waitId);

    /** The key failures name, and the Redis channel of the name (without the client id). */
    protected abstract String key();

    protected abstract String channelBase();

    /** What is being acquired, for messages: {@code 'x'}, {@code semaphore 'x'}... */
    protected abstract String describe();

    /** The same, after "the LockClient was closed while waiting for". */
    protected abstract String waitingFor();

    /** Whether a reply of 0 means the script refused the acquire for good (else it is busy). */
    protected abstract boolean refusedForGood(long reply);

    /** The failure of an acquire refused for good. */
    protected abstract RuntimeException refusal();

    /** How long a busy reply lets the loop sleep before it tries again (before the refresh and deadline caps). */
    protected abstract long busySleepNanos(long reply);

    /** Makes the lease of a hold taken with {@code token}, its validity counted from {@code sentAt}. */
    protected abstract RedisLease open(long token, long sentAt);

    /** Why a hold just taken must be given back (a cancellation, a closed client); null to keep it. */
    protected abstract Throwable refuseTaken();

    /** The owner-checked release of this acquire's hold and queue entry. */
    protected abstract CompletableFuture<Boolean> releaseOwn();

    /** The same, for a failure whose outcome in Redis is unknown: must not throw, logs what it cannot undo. */
    protected abstract void undoUnknown();

    /** Hands the outcome on: the lease, null when the wait ran out (both with a null failure), or the failure. */
    protected abstract void settle(RedisLease lease, RuntimeException failure);

    /** Starts the loop. */
    public final void start() {
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

    /** Marks the acquire given up and wakes its wait, so that the loop sees it at its next step. */
    public final void markCancelled() {
        cancelled = true;
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            w.nudge();
        }
    }

    /**
     * Ends the wait because the client is closing: leaves the queue (releasing a hold granted
     * meanwhile) and fails the acquire.
     *
     * @return the leave's reply
     */
    @Override
    public final CompletableFuture<Boolean> abortForClose() {
        cancelled = true;
        CompletableFuture<Boolean> left = releaseOwn();
        finish(null, new LockException("the LockClient was closed while waiting for " + waitingFor()));
        return left;
    }

    public final CancellationException cancellation() {
        return new CancellationException("acquire of " + describe() + " was cancelled");
    }

    private String channel() {
        if (channel == null) {
            channel = channelBase() + ':' + shared.owners.clientId();
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
        long tryNumber = mode.equals(QUEUE) ? ++queueTries : -1;
        long sentAt = shared.ticker.nanos();
        String waitArg = tryNumber < 0 ? "-" : waitId() + '.' + Long.toString(tryNumber, 36);
        send(mode, waitArg).whenComplete((replicated, error) -> {
            if (error != null) {
                finish(null, error);
                return;
            }
            long reply = (Long) replicated.reply();
            if (reply > 0 && !shared.scripts.acknowledged(replicated)) {
                // Taken on the master only: a failover now would lose it. finish() undoes it.
                finish(null, shared.scripts.notAcknowledged(key(), replicated, "the acquire of " + describe()));
            } else {
                onReply(reply, sentAt, sent, tryNumber);
            }
        });
    }

    /**
     * {@code reply}: the token when taken, else busy (or, where the kind has it, refused for good);
     * {@code tryNumber}: the queueing try's number, -1 for another try.
     */
    private void onReply(long reply, long sentAt, String mode, long tryNumber) {
        if (reply > 0) {
            queued = false;
            take(reply, sentAt);
            return;
        }
        if (refusedForGood(reply)) {
            finish(null, refusal());
            return;
        }
        if (mode.equals(LEAVE)) {
            queued = false;
            finish(null, cancelled ? cancellation() : null);
            return;
        }
        if (mode.equals(QUEUE)) {
            queuedSentAt = sentAt;
            busyTry = tryNumber;
        }
        WaitRoom.Waiter w = waiter;
        if (w != null && takeIfFresh(w)) {
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
            awaitSubscription(joined);
            return;
        }
        if (!mode.equals(QUEUE)) {
            awaitSubscription(w); // a try while the subscription was pending: not queued yet
            return;
        }
        long sleep = Math.min(busySleepNanos(reply), refreshNanos);
        if (deadline != FOREVER) {
            sleep = Math.min(sleep, Math.max(0, deadline - shared.ticker.nanos()));
        }
        // The signal armed before this try: a grant or wake during the try has already completed it.
        CompletableFuture<Boolean> signal = w.signalForWait();
        ScheduledFuture<?> timer =
                shared.scheduler.schedule(() -> signal.complete(Boolean.FALSE), sleep, TimeUnit.NANOSECONDS);
        signal.whenComplete((ok, error) -> {
            timer.cancel(false);
            if (!takeIfFresh(w)) {
                w.arm();
                attempt(QUEUE);
            }
        });
    }

    /**
     * Takes the waiter's grant if it names the last queueing try that found the lock busy (it was issued
     * after that try ran), and drops it if it names an earlier one (stale: the next try re-takes the hold
     * if it is still ours).
     *
     * @return whether the grant was taken
     */
    private boolean takeIfFresh(WaitRoom.Waiter w) {
        WaitRoom.Grant g = w.grant();
        if (g == null) {
            return false;
        }
        if (g.tryNumber() == busyTry || shared.acceptStaleGrants) {
            takeGranted(g.token());
            return true;
        }
        w.dropGrant(g);
        Log.LOG.log(
                System.Logger.Level.DEBUG,
                "dlock: a grant of {0} for try {1} came after try {2} found it busy; dropped as stale",
                describe(),
                g.tryNumber(),
                busyTry);
        return false;
    }

    /**
     * Queues once the subscription to the wake-up channel is confirmed (a grant can reach us only then),
     * and meanwhile tries (without queueing) at the refresh interval, so that a lock freed while the
     * subscription is pending (a client's first wait opens its pub/sub connection, which a loaded host
     * or a slow network can take seconds over) is taken, and the deadline and a cancellation are seen in
     * time. Whichever of the two comes first goes on; the other does nothing, so one command at most is
     * in flight.
     */
    private void awaitSubscription(WaitRoom.Waiter w) {
        CompletableFuture<Void> subscribed = w.subscribed();
        AtomicBoolean once = new AtomicBoolean();
        ScheduledFuture<?> poll = subscribed.isDone()
                ? null
                : shared.scheduler.schedule(
                        () -> {
                            if (once.compareAndSet(false, true)) {
                                attempt(TRY);
                            }
                        },
                        pollNanos(),
                        TimeUnit.NANOSECONDS);
        subscribed.whenComplete((ok, error) -> {
            if (!once.compareAndSet(false, true)) {
                return; // a try went first: its busy reply comes back here
            }
            if (poll != null) {
                poll.cancel(false);
            }
            if (error != null) {
                finish(null, error);
            } else {
                w.arm();
                attempt(QUEUE);
            }
        });
    }

    /** How long to wait before the next try: the refresh interval, or less when the deadline is nearer. */
    private long pollNanos() {
        if (deadline == FOREVER) {
            return refreshNanos;
        }
        return Math.min(refreshNanos, Math.max(0, deadline - shared.ticker.nanos()));
    }

    /**
     * Takes a hold another client's release granted. With {@code replicaAcks} the grant's write is not
     * known to be on the replicas, so one more try re-takes the hold and is acknowledged itself:
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
        if (shared.checkValidity && !Validity.hasMargin(sentAt, leaseMillis, shared.ticker.nanos())) {
            revalidate();
            return;
        }
        RedisLease lease = open(token, sentAt);
        Throwable refused = refuseTaken();
        if (refused != null) {
            lease.releaseQuietly();
            finish(null, refused);
        } else {
            finish(lease, null);
        }
    }

    /**
     * The hold is (or was) ours in Redis, but its validity as this client can prove it is under the
     * margin. One more try re-takes it with a full lease if it is still ours (granted or held), or
     * takes it afresh if it is free, or queues again if another took it meanwhile. Past the deadline or
     * cancelled, it is released instead: the wait ends without it.
     */
    private void revalidate() {
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            w.clearGrant();
            w.arm();
        }
        if (cancelled || pastDeadline()) {
            releaseOwn().whenComplete((ok, error) -> finish(null, cancelled ? cancellation() : error));
            return;
        }
        attempt(w != null ? QUEUE : TRY);
    }

    public final void finish(RedisLease lease, Throwable error) {
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
            settle(lease, null);
            return;
        }
        RuntimeException failure = shared.scripts.translate(error, key());
        if (failure instanceof LockConnectionException
                || failure instanceof LockReplicationException
                || queued
                || shared.scripts.waitsForReplicas()) {
            // A try that timed out may have reached Redis and taken the hold, or queued us, after all (a
            // timeout says nothing about the server); and an earlier queueing try left an entry that a
            // release would grant to. An owner-checked release, sent on the same connection after the
            // try, undoes both (it only deletes, so it runs even out of memory). A take too few replicas
            // acknowledged is undone the same way, and so is any failure of a replicated call: it may
            // come from the wait after the script ran (WAITAOF refused by a server older than 7.2, say),
            // so the script's outcome is unknown.
            undoUnknown();
        }
        settle(null, failure);
    }
}
