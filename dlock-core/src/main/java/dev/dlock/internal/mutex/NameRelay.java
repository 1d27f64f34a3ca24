package dev.dlock.internal.mutex;

import dev.dlock.LockException;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Validity;
import dev.dlock.internal.wait.QueueTarget;
import dev.dlock.internal.wait.QueuedAcquisition;
import dev.dlock.spi.Replicated;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The acquires of one client for one lock name, lined up in this JVM so that only one of them works
 * in Redis at a time, and so that a release can <em>relay</em> the lock to the next one in line
 * without letting it go in Redis (docs/waiting.md, "Relay inside one client").
 *
 * <p>Protocol. The first acquire (the <em>actor</em>) runs a {@link QueuedAcquisition} over {@code
 * acquire.lua} as if it were alone, with this gate as its {@link QueueTarget} and its turn as its
 * outcome; later ones wait in a FIFO line here. When the holder releases and the head of the line
 * wants the same kind of lease (watchdog-renewed, same lease time):
 *
 * <ul>
 *   <li>a <em>checked relay</em> runs {@code pass.lua}: if no other client queues for the lock, it
 *       keeps the hold, renews it and issues a fresh fencing token plus a reserved block of {@value
 *       #BLOCK} − 1 more; if another client queues, it releases and hands the lock to that client as
 *       a release does, and the head of the line becomes the actor and queues in Redis;
 *   <li>a <em>free relay</em> (no round trip) gives the head the next reserved token and the hold's
 *       validity, while the block lasts, for at most {@value #CHECK_MILLIS} ms after the checked
 *       relay was sent and while more than half the lease time is left.
 * </ul>
 *
 * So another client waits at most {@value #BLOCK} − 1 relays or {@value #CHECK_MILLIS} ms beyond its
 * turn. The Redis counter already stands at the block's last token, so a later holder anywhere gets
 * a higher token than any relayed one. A relayed lease keeps the Redis owner id of the hold.
 *
 * <p>Thread-safety: state is guarded by this object's monitor, held only for bookkeeping; Redis
 * commands are sent and futures completed outside it.
 */
public final class NameRelay implements QueueTarget {
    static final int BLOCK = 16;
    static final long CHECK_MILLIS = 5;
    private static final String BLOCK_ARG = Integer.toString(BLOCK);
    private static final long FOREVER = PendingAcquire.FOREVER;

    private final NameRelays gates; // this client's gates, and what they share
    private final LockKeys keys;
    // Guarded by this.
    private boolean active; // a turn acts in Redis, a lease of this gate is held, or a pass is on its way
    private RedisLease held;
    private final PendingAcquires line = new PendingAcquires();
    private final ReservedTokens block = new ReservedTokens(); // reserved by the last checked relay
    private boolean dead; // left the client's map; a new gate takes over
    private boolean idleSeen; // sweep() found it idle once

    NameRelay(NameRelays gates, LockKeys keys) {
        this.gates = gates;
        this.keys = keys;
    }

    /** Lines the turn up, or makes it the actor; false when this gate is dead (use a new one). */
    boolean admit(PendingAcquire turn) {
        boolean act;
        synchronized (this) {
            if (dead) {
                return false;
            }
            turn.gate = this;
            idleSeen = false;
            act = !active;
            if (act) {
                active = true;
            } else if (turn.deadline != FOREVER && turn.deadline - gates.ticker.nanos() <= 0) {
                turn.complete(null); // no wait, and this client is at the lock already
                return true;
            } else {
                line.add(turn);
            }
        }
        if (act) {
            act(turn);
        } else if (turn.deadline != FOREVER) {
            long wait = Math.max(0, turn.deadline - gates.ticker.nanos());
            turn.timer(gates.scheduler.schedule(() -> timeOut(turn), wait, TimeUnit.NANOSECONDS));
        }
        return true;
    }

    private void timeOut(PendingAcquire turn) {
        boolean removed;
        synchronized (this) {
            removed = line.remove(turn);
        }
        if (removed) {
            turn.complete(null);
        }
    }

    /** Starts the turn's own acquire in Redis; called with the gate active for it. */
    private void act(PendingAcquire turn) {
        if (gates.lifecycle.isClosed()) {
            failClosed(turn);
            actorDone(turn, null, null);
            return;
        }
        turn.cancelTimer();
        long wait = turn.deadline == FOREVER ? FOREVER : Math.max(0, turn.deadline - gates.ticker.nanos());
        QueuedAcquisition acquisition = new QueuedAcquisition(
                gates.acquirer, this, turn, turn.owner, turn.leaseMillis, turn.renewed, wait, null);
        synchronized (this) {
            if (turn.cancelled) {
                acquisition = null; // giveUp() has completed the turn
            } else {
                turn.acquisition = acquisition;
            }
        }
        if (acquisition == null) {
            actorDone(turn, null, null);
            return;
        }
        acquisition.start();
    }

    /**
     * The turn's own acquire ended: with the lease, with null (the wait ran out), or with the failure.
     * A turn that was given up meanwhile (already completed) releases the lease again.
     */
    void actorDone(PendingAcquire turn, RedisLease lease, Throwable error) {
        PendingAcquire next = null;
        boolean give = false;
        synchronized (this) {
            if (lease != null && lease.isHeld()) {
                held = lease;
                give = true;
            } else {
                next = nextActorLocked();
            }
        }
        if (give) {
            complete(turn, lease); // on a reply callback: no release call to recurse into
        } else if (error != null) {
            turn.completeExceptionally(error);
        } else if (lease == null) {
            turn.complete(null); // the wait ran out
        } else if (gates.lifecycle.isClosed()) {
            failClosed(turn); // taken while the client closed: already released
        } else {
            turn.complete(lease); // lost the moment it was taken: the caller sees it invalid, as before
        }
        if (next != null) {
            act(next);
        }
    }

    /** The hold ended (or never was): the next live turn in line becomes the actor, if any. */
    private PendingAcquire nextActorLocked() {
        endHoldLocked();
        PendingAcquire head = line.head();
        if (head != null) {
            line.dropHead();
            return head; // active stays true: the head acts now
        }
        active = false; // idle: it stays in the client's map until sweep() finds it idle twice
        return null;
    }

    /**
     * Called once per watchdog round: a gate found idle in two rounds in a row leaves the client's
     * map, so nothing stays per lock name for long, while a name in use keeps its gate (no allocation
     * per uncontended acquire).
     */
    void sweep() {
        synchronized (this) {
            if (active || !line.isEmpty()) {
                idleSeen = false;
                return;
            }
            if (!idleSeen) {
                idleSeen = true;
                return;
            }
            dead = true;
        }
        gates.remove(keys.name(), this);
    }

    /** No lease of this gate is held any more; the rest of a reserved block belongs to that hold. */
    private void endHoldLocked() {
        held = null;
        block.clear();
    }

    /**
     * Ends a lease of this gate that its holder released (it is already marked released): relays it
     * to the head of the line or releases it in Redis.
     *
     * @return true if the lease still owned the lock
     */
    @Override
    public CompletableFuture<Boolean> release(RedisLease lease) {
        boolean pass = false;
        PendingAcquire relayTo = null;
        RedisLease relayed = null;
        boolean promoteAfter = false;
        synchronized (this) {
            if (held != lease) {
                pass = false; // taken by an acquire that was cancelled meanwhile: never handed out
            } else {
                PendingAcquire head = line.head();
                long now = gates.ticker.nanos();
                if (head == null && !lease.isRelayed()) {
                    nextActorLocked(); // nobody waits: the gate goes idle with the release sent
                } else if (head == null || !relayable(lease, head)) {
                    // Nobody waits for a relayed hold, or the head wants another kind of lease. The
                    // gate stays busy until Redis has run the release, so that no acquire of this
                    // client reaches Redis before it: a relayed hold keeps its first owner's id, and
                    // a thread whose own id that is would otherwise find "its own" hold and take it
                    // over. (A hold never relayed is released by its own owner, whose next acquire
                    // comes after the release on the same thread.)
                    endHoldLocked();
                    promoteAfter = true;
                } else if (block.usable(now) && lease.deadline() - now > Validity.marginNanos(lease.leaseMillis())) {
                    line.dropHead();
                    relayTo = head;
                    relayed = gates.leases.relay(lease, block.take());
                    held = relayed;
                } else {
                    endHoldLocked(); // limbo until the pass answers; active stays true
                    pass = true;
                }
            }
        }
        if (relayTo != null) {
            complete(relayTo, relayed);
            return CompletableFuture.completedFuture(Boolean.TRUE);
        }
        if (pass) {
            return pass(lease);
        }
        CompletableFuture<Boolean> released = gates.leases.release(keys, lease.owner());
        if (promoteAfter) {
            released.whenComplete((ok, error) -> promote());
        }
        return released;
    }

    private static boolean relayable(RedisLease lease, PendingAcquire head) {
        return lease.isRenewed() && head.renewed && head.leaseMillis == lease.leaseMillis();
    }

    private void promote() {
        PendingAcquire next;
        synchronized (this) {
            next = nextActorLocked();
        }
        if (next != null) {
            act(next);
        }
    }

    private CompletableFuture<Boolean> pass(RedisLease lease) {
        long sentAt = gates.ticker.nanos();
        String[] args = {lease.owner(), gates.leaseTime.arg(lease.leaseMillis()), BLOCK_ARG};
        return gates.scripts.evalGranting(Scripts.PASS, keys.scriptKeys(), args).handle((replicated, error) -> {
            if (error != null) {
                gates.leases.release(keys, lease.owner()); // owner-checked; Redis runs it after the pass
                promote();
                throw gates.scripts.translate(error, keys.lock());
            }
            long token = (Long) replicated.reply();
            if (token > 0 && !gates.scripts.acknowledged(replicated)) {
                // The reserved tokens are on the master only; a failover could hand them out again.
                // Let the lock go; the next turn acquires it afresh, acknowledged or failing visibly.
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock: {0}; releasing '{1}' instead of relaying it",
                        gates.scripts
                                .notAcknowledged(keys.lock(), replicated, "a relay of '" + keys.name() + "'")
                                .getMessage(),
                        keys.name());
                gates.leases.release(keys, lease.owner()).whenComplete((ok, e) -> promote());
                return Boolean.TRUE;
            }
            if (token > 0) {
                passed(lease, token, sentAt);
                return Boolean.TRUE;
            }
            promote(); // released (and handed to another client), or no longer ours
            return token == 0;
        });
    }

    /** The pass kept the hold and reserved {@code token .. token + BLOCK - 1}. */
    private void passed(RedisLease from, long token, long sentAt) {
        PendingAcquire head;
        RedisLease relayed = null;
        synchronized (this) {
            head = line.head();
            // Like every acquire, a relay hands over at least half a lease (a slow pass reply would not).
            boolean valid =
                    Validity.hasMargin(sentAt, from.leaseMillis(), gates.ticker.nanos()) || gates.expiredHandoff;
            if (head != null && relayable(from, head) && valid) {
                line.dropHead();
                block.reserve(token, sentAt);
                relayed = gates.leases.relay(from, token);
                relayed.renewed(sentAt);
                held = relayed;
            }
        }
        if (relayed != null) {
            complete(head, relayed);
            return;
        }
        // The line emptied (or changed) while the pass was on its way: let the lock go after all.
        gates.leases.release(keys, from.owner()).whenComplete((ok, error) -> promote());
    }

    /**
     * Hands a lease to a turn; a turn that no longer wants it releases it again. No application code
     * runs here: an asynchronous acquire's own future completes on the callback executor.
     */
    private static void complete(PendingAcquire turn, RedisLease lease) {
        if (!turn.complete(lease)) {
            lease.releaseQuietly();
        }
    }

    // ---- QueueTarget: what the actor's acquire sends, and how it reads the replies --------------

    @Override
    public LockKeys lockKeys() {
        return keys;
    }

    /** {@code acquire.lua}: the wait id only when queueing, and no arguments of its own. */
    @Override
    public CompletableFuture<Replicated> send(String[] args) {
        return gates.scripts.evalGranting(Scripts.ACQUIRE, keys.scriptKeys(), args);
    }

    @Override
    public String describe() {
        return "'" + keys.name() + "'";
    }

    @Override
    public String waitingFor() {
        return "lock '" + keys.name() + "'";
    }

    /**
     * {@code reply}: {@code -2 - holder's PTTL} (acquire.lua): until it may have run out, at least 1 ms;
     * never refused for good (0 is busy with no holder: -2 - PTTL of a missing key).
     */
    @Override
    public long busySleepNanos(long reply, long refreshNanos) {
        long holderTtl = -2 - reply;
        return holderTtl > 0 ? TimeUnit.MILLISECONDS.toNanos(holderTtl) + 1_000_000L : 1_000_000L;
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        return gates.leases.release(keys, owner);
    }

    @Override
    public void undoUnknown(String owner) {
        gates.leases.releaseUnknown(keys, owner);
    }

    // ---- LeaseKind: how its leases end and are renewed ------------------------------------------

    @Override
    public CompletableFuture<Boolean> releaseInRedis(RedisLease lease) {
        return release(lease.owner());
    }

    @Override
    public dev.dlock.spi.Script renewScript() {
        return Scripts.RENEW;
    }

    @Override
    public String renewKey(RedisLease lease) {
        return keys.lock();
    }

    /** A lease of this gate was lost: the next turn acquires for itself. */
    @Override
    public void lost(RedisLease lease) {
        PendingAcquire next = null;
        synchronized (this) {
            if (held == lease) {
                next = nextActorLocked();
            }
        }
        if (next != null) {
            act(next);
        }
    }

    /** Fails every turn in line because the client is closing. */
    void close() {
        List<PendingAcquire> waiting;
        synchronized (this) {
            waiting = line.clear();
        }
        for (PendingAcquire t : waiting) {
            failClosed(t);
        }
    }

    /** Gives a turn up; the returned future completes once no lock taken by it is left. */
    CompletableFuture<Void> giveUp(PendingAcquire turn) {
        QueuedAcquisition a;
        boolean removed;
        synchronized (this) {
            turn.cancelled = true;
            a = turn.acquisition;
            removed = a == null && line.remove(turn);
        }
        if (a != null) {
            return turn.cancelActing(a);
        }
        if (removed) {
            turn.cancelTimer();
        }
        // Also when a relay has just taken the turn out of the line: its delivery then fails and
        // releases the lease again. A lease delivered before this stays in the turn for the caller.
        turn.completeExceptionally(new CancellationException("acquire of " + describe() + " was cancelled"));
        return CompletableFuture.completedFuture(null);
    }

    private void failClosed(PendingAcquire turn) {
        turn.completeExceptionally(new LockException("the LockClient was closed while waiting for " + waitingFor()));
    }
}
