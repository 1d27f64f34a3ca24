package dev.dlock.internal.wait;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockReplicationException;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.util.LeaseTime;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Validity;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The loop every acquire that waits in a Redis FIFO queue runs, asynchronously so that no thread
 * blocks while it waits: the mutex's (started by its {@code NameRelay}) and the shared-lock model's
 * (a {@code PermitAcquisition}; docs/waiting.md, docs/lock-family.md). Protocol:
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
 * <p>The loop is this one final class; what differs between kinds of lock is given to it, not
 * overridden. Its {@link QueueTarget} (one per kind and name, holding nothing of one acquire) says what
 * a try sends, how to read a busy reply, and how a hold is opened, released and undone; its {@link
 * Outcome} (the acquire as its caller waits for it: the mutex's {@code PendingAcquire}, a {@code
 * PermitAcquisition}) takes the result. Both are objects that exist anyway, so a mutex acquire
 * allocates this loop and nothing more for them. The loop's state is the acquire's: its owner, lease
 * and deadline, the queueing tries, its waiter, and the kind's own script arguments, if any.
 */
public final class QueuedAcquisition implements AbortableWait {
    private static final long FOREVER = Long.MAX_VALUE;
    private static final String TRY = "0";
    private static final String QUEUE = "1";
    private static final String LEAVE = "2";
    private static final VarHandle CLAIMED;

    static {
        try {
            CLAIMED = MethodHandles.lookup().findVarHandle(QueuedAcquisition.class, "claimed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AcquireContext shared; // what the acquisitions of this client share
    private final QueueTarget target;
    private final Outcome outcome;
    private final String owner;
    private final long leaseMillis;
    private final String leaseArg;
    private final String entryArg;
    private final String[] kindArgs; // the kind's own script arguments after the wait id, or null
    private final long refreshNanos;
    private final boolean renewed;
    private final long deadline; // ticker nanos, or FOREVER
    private volatile boolean claimed; // through CLAIMED: the first finish() wins
    private volatile boolean cancelled;
    private volatile boolean queued; // a queueing try was sent, so Redis may hold our queue entry
    private volatile long queuedSentAt; // send time of the last queueing try that found it busy
    private volatile long busyTry; // that try's number (from 1): the only one whose grant is taken
    private long queueTries; // queueing tries sent; one command is in flight at a time
    private volatile WaitRoom.Waiter waiter;
    private String waitId; // made when it first queues
    private String channel; // this client's wake-up channel for this name, built when first needed

    /** Where the result of an acquire goes. */
    public interface Outcome {
        /** Takes the result: the lease, null when the wait ran out (both with a null failure), or the failure. */
        void settle(RedisLease lease, RuntimeException failure);
    }

    /**
     * An acquire by {@code owner} of {@code target}, for a lease of {@code leaseMillis} (watchdog-renewed
     * if {@code renewed}), waiting at most {@code waitNanos}; {@link #start} runs it.
     *
     * @param kindArgs the kind's own script arguments, sent after the wait id; null if it has none
     */
    public QueuedAcquisition(
            AcquireContext shared,
            QueueTarget target,
            Outcome outcome,
            String owner,
            long leaseMillis,
            boolean renewed,
            long waitNanos,
            String[] kindArgs) {
        this.shared = shared;
        this.target = target;
        this.outcome = outcome;
        this.owner = owner;
        this.leaseMillis = leaseMillis;
        this.leaseArg = shared.leaseTime.arg(leaseMillis);
        this.entryArg = shared.leaseTime.entryArg(leaseMillis);
        this.kindArgs = kindArgs;
        long refreshMillis = LeaseTime.entryMillis(leaseMillis) / 3;
        if (shared.checkValidity) {
            refreshMillis = Math.min(refreshMillis, leaseMillis / 3);
        }
        this.refreshNanos = TimeUnit.MILLISECONDS.toNanos(refreshMillis);
        this.renewed = renewed;
        long now = shared.ticker.nanos();
        this.deadline = waitNanos >= FOREVER - now ? FOREVER : now + waitNanos;
    }

    /** Starts the loop. */
    public void start() {
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
    public void markCancelled() {
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
    public CompletableFuture<Boolean> abortForClose() {
        cancelled = true;
        CompletableFuture<Boolean> left = target.release(owner);
        finish(null, new LockException("the LockClient was closed while waiting for " + target.waitingFor()));
        return left;
    }

    private CancellationException cancellation() {
        return new CancellationException("acquire of " + target.describe() + " was cancelled");
    }

    private String channel() {
        if (channel == null) {
            channel = target.lockKeys().channel() + ':' + shared.owners.clientId();
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
        target.send(args(mode, waitArg)).whenComplete((replicated, error) -> {
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
                                target.lockKeys().lock(), replicated, "the acquire of " + target.describe()));
            } else {
                onReply(reply, sentAt, sent, tryNumber);
            }
        });
    }

    /**
     * The script's arguments for a try in {@code mode}: the wait id is sent when queueing, or always when
     * the kind has arguments of its own after it.
     */
    private String[] args(String mode, String waitArg) {
        if (kindArgs == null) {
            return mode.equals(QUEUE)
                    ? new String[] {owner, leaseArg, mode, entryArg, waitArg}
                    : new String[] {owner, leaseArg, mode, entryArg};
        }
        String[] args = new String[5 + kindArgs.length];
        args[0] = owner;
        args[1] = leaseArg;
        args[2] = mode;
        args[3] = entryArg;
        args[4] = waitArg;
        System.arraycopy(kindArgs, 0, args, 5, kindArgs.length);
        return args;
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
        long busySleep;
        try {
            busySleep = target.busySleepNanos(reply, refreshNanos);
        } catch (LockException refusedForGood) {
            finish(null, refusedForGood);
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
        long sleep = Math.min(busySleep, refreshNanos);
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
                target.describe(),
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
        RedisLease lease = shared.leases.open(target.lockKeys(), owner, token, leaseMillis, renewed, sentAt, target);
        Throwable refused = cancelled ? cancellation() : target.refuseTaken();
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
            target.release(owner).whenComplete((ok, error) -> finish(null, cancelled ? cancellation() : error));
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
            outcome.settle(lease, null);
            return;
        }
        RuntimeException failure =
                shared.scripts.translate(error, target.lockKeys().lock());
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
            target.undoUnknown(owner);
        }
        outcome.settle(null, failure);
    }
}
