package dev.dlock.sim;

import java.util.ArrayDeque;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The replica of one {@link SimRedis}: a second keyspace fed by the master's writes in their order, each applied after
 * a lag drawn from a seeded source, which a promotion ({@link Promotions}) makes the master's data.
 *
 * <p><b>The model.</b> After each command or script a client sends, the master ships one replication entry: the state
 * of every key the command wrote (its value, and its expiry as an absolute time of the server's clock, or none), and
 * the entry takes the next offset. The replica applies entries in offset order, each at its own instant, no earlier
 * than the one before. This is what Redis 7 replicates: a script's effects, wrapped so that the replica applies them
 * at once (never a part of a script), in the master's order over one stream; a relative expiry ({@code PEXPIRE},
 * {@code SET PX}) as an absolute one ({@code PEXPIREAT}). Shipping a key's whole state after the command has the same
 * effect on the replica as its commands' effects would: the replica had the key as the master had it before the
 * command (every earlier write is applied first), and each effect is a function of the key alone. A key that expires
 * on the master is not shipped: a replica does not expire keys on its own, but its reads of a key past its time return
 * nothing (Redis 3.2+), and here the key carries that time, which is the same to every reader; once promoted it expires
 * by its own clock, which is the world's (the same as the old master's: no skew, so that tokens, which follow the
 * server's clock, and leases keep their meaning; docs/fencing.md says what a skew would do).
 *
 * <p><b>Lag.</b> An entry is applied 20 µs to 2 ms after it is shipped (a replica on a LAN); now and then (one entry in
 * {@value #HOLD_ONE_IN}) the replica is held back from then on for 50 to 500 ms, or one time in four for up to three
 * leases (a slow replica, a full output buffer, a pause): what is shipped meanwhile is applied after it, in order. A
 * promotion may also hold it back first ({@link #holdBack}). The instant each entry is applied is drawn when it is
 * shipped, so the replica is brought up to date lazily (no event of its own in the world), and a {@code WAIT} knows at
 * once when it will be answered ({@link #appliedAt}).
 *
 * <p><b>Syncs.</b> Attached ({@link #sync}) the replica is a copy of the master's keys, every offset shipped so far
 * applied (a full sync); a restart of the master syncs it again (a replica of a restarted master resyncs, so a master
 * that lost its data empties its replica too). Detached ({@link #detach}), it applies what it had received and no more,
 * and nothing shipped reaches it, as a promoted replica, or none at all.
 *
 * <p>Not thread-safe: a run is one thread's at a time.
 */
final class SimReplica {
    /** One entry in {@code HOLD_ONE_IN} starts a hold-back. */
    static final int HOLD_ONE_IN = 2000;

    private static final long MS = 1_000_000;

    private final EventLoop loop;
    private final SimRedis master;
    private final SimRedis data; // the replica's keyspace, as a server: read by tests and the promotion
    private final SplittableRandom random;
    private final long leaseNanos;
    private final ArrayDeque<Entry> pending = new ArrayDeque<>(); // shipped, not yet applied
    private long shipped; // the master's replication offset: entries shipped
    private long applied; // the replica's: entries applied
    private long lastApplyAt; // world time
    private long heldUntil; // world time
    private boolean attached;
    private long holdBacks;

    /** One replication entry: its offset, when the replica applies it (world time), and what it carries. */
    private record Entry(long offset, long applyAt, List<Keyspace.State> states) {}

    /**
     * A replica of {@code master}, attached (synced) at once, and fed by its writes from now on.
     *
     * @param loop the world
     * @param master the master
     * @param random its source of lags
     * @param leaseMillis the clients' lease time (the longest hold-backs pass it)
     */
    SimReplica(EventLoop loop, SimRedis master, SplittableRandom random, long leaseMillis) {
        this.loop = loop;
        this.master = master;
        this.random = random;
        this.leaseNanos = leaseMillis * MS;
        this.data = new SimRedis(master::now);
        master.replicateTo(this);
        master.addRestartListener(() -> {
            if (attached) {
                sync(); // a restarted master's replica resyncs from it
            }
        });
        sync();
    }

    /** The master ran a command that wrote: one entry, applied after its lag. */
    void ship(List<Keyspace.State> states) {
        long offset = ++shipped;
        if (!attached) {
            return; // no replica takes it
        }
        catchUp();
        long now = loop.now();
        if (random.nextInt(HOLD_ONE_IN) == 0) {
            long hold = random.nextInt(4) == 0
                    ? random.nextLong(500 * MS, 3 * leaseNanos + 1)
                    : random.nextLong(50 * MS, 500 * MS + 1);
            holdBack(hold);
        }
        long at = Math.max(lastApplyAt, Math.max(now, heldUntil) + random.nextLong(20_000, 2 * MS + 1));
        lastApplyAt = at;
        pending.addLast(new Entry(offset, at, states));
    }

    /** Holds the replica back for {@code nanos} from now: what is shipped meanwhile is applied after that. */
    void holdBack(long nanos) {
        heldUntil = Math.max(heldUntil, loop.now() + nanos);
        holdBacks++;
    }

    /** How many hold-backs began. */
    long holdBacks() {
        return holdBacks;
    }

    /** The master's replication offset: how many entries it shipped. */
    long shipped() {
        return shipped;
    }

    /** The offset the replica has applied by now. */
    long applied() {
        catchUp();
        return applied;
    }

    /**
     * When (world time) the replica acknowledges {@code offset}: now if it has applied it, the instant drawn for it if
     * it is on its way, or {@code Long.MAX_VALUE} if it never will (detached: no replica to acknowledge anything).
     */
    long appliedAt(long offset) {
        catchUp();
        if (!attached) {
            return Long.MAX_VALUE;
        }
        if (offset <= applied) {
            return loop.now();
        }
        for (Entry e : pending) {
            if (e.offset() >= offset) {
                return e.applyAt();
            }
        }
        return Long.MAX_VALUE;
    }

    /** Whether the replica is attached to the master. */
    boolean attached() {
        return attached;
    }

    /**
     * Stops replicating, as for a promotion: the replica applies what it had received by now (nothing later), and
     * its keys are what the promoted server will have.
     *
     * @return its keys
     */
    SimRedis detach() {
        catchUp();
        attached = false;
        pending.clear();
        return data;
    }

    /** A full sync: the replica becomes a copy of the master's keys as stored, every offset shipped applied. */
    void sync() {
        data.copyKeysOf(master);
        pending.clear();
        applied = shipped;
        lastApplyAt = loop.now();
        heldUntil = loop.now();
        attached = true;
    }

    /** The replica's keys as a server, to read (its reads of a key past its time return nothing). */
    SimRedis data() {
        catchUp();
        return data;
    }

    private void catchUp() {
        long now = loop.now();
        for (Entry e = pending.peekFirst(); e != null && e.applyAt() <= now; e = pending.peekFirst()) {
            pending.pollFirst();
            data.apply(e.states());
            applied = e.offset();
        }
    }
}
