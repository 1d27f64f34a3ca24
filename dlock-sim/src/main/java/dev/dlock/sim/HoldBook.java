package dev.dlock.sim;

import dev.dlock.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;

/**
 * The holds a {@link Simulation}'s callers have, as they have them, and the invariants over them: no two holds of a
 * name that exclude each other valid at once by their holders' own view, permits never over the count, each hold a
 * holder believes valid held on the server (a shared hold also in a holders' hash that lives at least as long as its
 * entry), and a new hold's fencing token above every valid hold it excludes. Not thread-safe: a run is one thread's at a
 * time.
 *
 * <p>Two events end holds on the single server without their holders being told, and dlock promises no exclusion
 * across them (docs/verification.md, "Without persistence"; {@code LockAdmin.forceUnlock}): a restart of the server
 * without its data, and a force-release. A hold of the single server is <em>exempt</em> from the exclusion, count and
 * server-side checks once such an event took it away: a wipe after which the hold's token is below the server's clock
 * (in µs) when it came back (every token granted before it is: a token is {@code max(last + 1, TIME in µs)}, and the
 * counter is lost with the data; every token granted after it is not), or a force-release that removed its token (as
 * the script ran on the server, whether or not its reply reached the operator). Its holder must
 * then see it lost by the end of the lease it could have had at that event: the event's instant plus a lease for a
 * watchdog's lease (no renewal after it can succeed: the key is gone; every deadline counts from a request sent before
 * it), the hold's own end for a fixed lease, with 100 ppm of drift and 2 ms. The fencing-token check is not relaxed: tokens
 * still rise per name across both.
 *
 * <p>A third event is a promotion of the server's replica ({@link Promotions}): the server comes back with what its
 * replica had applied. It takes away the records the replica lacked or had with an earlier end (a grant, relay or
 * renewal not yet replicated): their tokens ({@link #promoted}). dlock keeps a hold across it only for a holder built
 * with {@code replicaAcks} (docs/topologies.md): such a hold is never exempt, and is checked as any other. A hold of a
 * holder without it whose token a promotion took away is exempt as above, from the promotion, while the server does not
 * hold it (a record that came back shorter is the holder's again once a renewal on the new master extends it, and
 * a mutex's older record of the hold's owner id is the holder's: {@link ServerHolds#heldForOwner}), and its
 * holder must learn the loss within the same bound; its token is not held against holds taken since (a relay within
 * its client may bring it to its caller after the promotion). A force-release the promotion undid (the replica had not
 * applied it) exempts no longer: the hold is the holder's again.
 *
 * <p>A Redlock hold is held while a quorum of masters keep its attempt's owner id in the name's lock key. A
 * force-release of a Redlock name ({@code LockAdmin.forceUnlock} through a Redlock client: the force script on every
 * master that answers) deletes the key whoever holds it; it may reach only some masters, and a master that lost its
 * data since the hold was granted may leave it short of a quorum with fewer. A Redlock hold is exempt as above once a
 * force-release removed its owner's key from a master ({@link #redlockForced}, the latest such removal) and fewer
 * than a quorum of masters still hold it: its holder must see it lost by a lease after that removal (no renewal sent
 * after it can be confirmed there; one in flight had its deadline from before). A hold that keeps its quorum after a
 * force-release reached some masters is checked as any other.
 */
final class HoldBook {
    /** The kinds of hold the callers take. */
    enum Kind {
        MUTEX,
        MULTI,
        READ,
        WRITE,
        PERMIT,
        REDLOCK;

        boolean shared() {
            return this == READ || this == PERMIT;
        }
    }

    /** How a holder sees its hold: a {@link Lease}, or a thread's hold through {@code lock()}. */
    interface View {
        /** Whether the holder believes the hold valid now. */
        boolean isValid();

        /** How long the holder believes it has left. */
        Duration remaining();

        /** A lease's own view. */
        static View of(Lease lease) {
            return new View() {
                @Override
                public boolean isValid() {
                    return lease.isValid();
                }

                @Override
                public Duration remaining() {
                    return lease.remaining();
                }
            };
        }
    }

    /**
     * One hold of one name, as its caller has it (a multi-lock's is one per name: of kind MUTEX for a lease, MULTI for
     * a thread's hold).
     */
    record Hold(Kind kind, String name, long token, View lease, int caller) {}

    /** The tokens a pass reserves for a client's own relays (dlock-core's {@code NameRelay.BLOCK}). */
    static final int RELAY_BLOCK = 16;

    private final ServerHolds servers;
    private final int permits;
    private final Map<String, List<Hold>> held = new LinkedHashMap<>();
    private final Map<String, Long> maxToken = new HashMap<>(); // of any valid hold of the name
    private final Map<String, Long> maxExclusiveToken = new HashMap<>();
    /** A semaphore's count lowered by setPermits, and the world time from which it is surely in force. */
    private final Map<String, long[]> lowered = new HashMap<>();
    /** Per hold: the server's clock (ms) when its caller got it, and the ms its holder then believed it had left. */
    private final Map<Hold, long[]> takenAt = new IdentityHashMap<>();
    /** The single server's restarts without data: its clock (ms) at the crash, and (µs) when it came back. */
    private final List<long[]> wipes = new ArrayList<>();
    /** Per wipe: the largest tokens of holds taken before it. */
    private final List<MaxTokens> beforeWipe = new ArrayList<>();
    /** The tokens force-releases removed, and those promotions took away. */
    private final TokenRemovals forced = new TokenRemovals();

    private final TokenRemovals promoted = new TokenRemovals();
    /** Per Redlock owner id: the server's clock (ms) when a force-release last deleted its lock key on a master. */
    private final Map<String, Long> redlockForced = new HashMap<>();
    /** Whether a caller's client waits for replica acknowledgements ({@code replicaAcks}). */
    private IntPredicate acked = caller -> false;

    private final long leaseMillis;
    private final LongSupplier clock;
    /** The holds found believed valid after a wipe or force-release took them away, and which of the two. */
    private final Map<Hold, String> exempted = new IdentityHashMap<>();

    private long nowMs;

    /** The largest tokens per name: of any hold, and of exclusive ones. */
    private record MaxTokens(Map<String, Long> all, Map<String, Long> exclusive) {}

    /**
     * @param server the server the holds are taken on
     * @param permits the semaphores' permits
     * @param nodes Redlock's masters
     */
    HoldBook(SimRedis server, int permits, List<SimRedis> nodes) {
        this(server, permits, nodes, 1000, null);
    }

    /**
     * @param server the server the holds are taken on
     * @param permits the semaphores' permits
     * @param nodes Redlock's masters
     * @param leaseMillis the watchdog's lease time
     * @param clock the server's clock (ms), or null for the time of the last check
     */
    HoldBook(SimRedis server, int permits, List<SimRedis> nodes, long leaseMillis, LongSupplier clock) {
        this.servers = new ServerHolds(server, nodes);
        this.permits = permits;
        this.leaseMillis = leaseMillis;
        this.clock = clock;
    }

    /**
     * The single server crashed, its data to be lost, at its clock {@code nowMs}: a count {@code setPermits} lowered is
     * lost with the record (the next acquire makes it again with the count it is created with).
     */
    void serverCrashed(long nowMs) {
        if (!wipes.isEmpty() && wipes.get(wipes.size() - 1)[1] == Long.MAX_VALUE) {
            throw new IllegalStateException("the server crashed again before it came back");
        }
        wipes.add(new long[] {nowMs, Long.MAX_VALUE});
        beforeWipe.add(new MaxTokens(new HashMap<>(maxToken), new HashMap<>(maxExclusiveToken)));
        lowered.clear();
    }

    /** The single server came back empty at its clock {@code nowMs}. */
    void serverRestarted(long nowMs) {
        wipes.get(wipes.size() - 1)[1] = nowMs * 1000;
    }

    /**
     * A force-release of {@code name} ran on the server at its clock {@code nowMs} and removed the holds of {@code
     * tokens} (told as it runs, whether or not its reply reaches the operator).
     */
    void forced(String name, long nowMs, Set<Long> tokens) {
        forced.add(name, nowMs, tokens);
    }

    /** The Redlock hold {@code hold} was made by the attempt of owner id {@code owner}. */
    void redlockOwner(Hold hold, String owner) {
        servers.redlockOwner(hold, owner);
    }

    /**
     * A force-release of a Redlock name ran on one master at the server's clock {@code nowMs} and deleted the lock key
     * {@code owner} held there (told as it runs, whether or not its reply reaches the operator).
     */
    void redlockForced(String owner, long nowMs) {
        redlockForced.put(owner, nowMs);
    }

    /** Which callers' clients wait for replica acknowledgements ({@code replicaAcks}): a promotion never exempts them. */
    void ackedCallers(IntPredicate acked) {
        this.acked = acked;
    }

    /**
     * The single server's replica was promoted at the server's clock {@code nowMs}: {@code lost} has, per name, the
     * tokens of the records it took away. A count {@code setPermits} lowered is no longer known to be in force (its
     * write is not acknowledged, and may not have reached the replica).
     */
    void promoted(long nowMs, Map<String, Set<Long>> lost) {
        lowered.clear();
        lost.forEach((name, tokens) -> promoted.add(name, nowMs, tokens));
    }

    /**
     * The server came back at its clock {@code nowMs} with the data of the replica promoted at {@code promotedMs}: a
     * force-release whose holds it has again (the replica had not applied it) is undone for them, which are their
     * holders' again; as records the promotion brought back, perhaps with an earlier end than their last renewal's,
     * they count as taken away by it ({@link #promotedAt}) whenever the server does not hold them.
     */
    void promotedServerBack(long promotedMs, long nowMs) {
        for (List<Hold> holds : held.values()) {
            for (Hold h : holds) {
                if (forcedAt(h) >= 0 && servers.missing(h, nowMs) == null) {
                    forced.undo(h.name(), h.token());
                    promoted.add(h.name(), promotedMs, Set.of(h.token()));
                }
            }
        }
    }

    /**
     * How many holds of holders with {@code replicaAcks} believed valid at the promotion ({@code before}) are still
     * believed valid and held by the server now, back with its replica's data.
     */
    long ackedSurvivors(Set<Hold> before, long nowMs) {
        return before.stream()
                .filter(h -> h.lease().isValid() && servers.missing(h, nowMs) == null)
                .count();
    }

    /** The holds of holders with {@code replicaAcks} that their holders believe valid now. */
    Set<Hold> ackedValid() {
        Set<Hold> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        held.values()
                .forEach(l -> l.stream()
                        .filter(h -> acked.test(h.caller()) && h.lease().isValid())
                        .forEach(out::add));
        return out;
    }

    /**
     * The server's clock (ms) when a promotion took {@code h} away, if its holder does not wait for acknowledgements,
     * or -1.
     */
    private long promotedAt(Hold h) {
        if (h.kind() == Kind.REDLOCK || acked.test(h.caller())) {
            return -1;
        }
        return promoted.firstAt(h.name(), h.token());
    }

    /**
     * The server's clock (ms) when a wipe or a force-release first took {@code h} away, or -1 if none did; for a
     * Redlock hold, when a force-release last deleted its key on a master, if fewer than a quorum hold it now.
     */
    private long exemptSince(Hold h) {
        if (h.kind() == Kind.REDLOCK) { // a master's data loss: their own rule (RedlockFences)
            Long forced = redlockForced.get(servers.redlockOwner(h));
            return forced != null && servers.missing(h, nowMs) != null ? forced : -1;
        }
        long since = wipeAt(h);
        long force = forcedAt(h);
        return force >= 0 && (since < 0 || force < since) ? force : since;
    }

    /** The server's clock (ms) when a force-release first removed {@code h}, or -1 if none did. */
    private long forcedAt(Hold h) {
        return forced.firstAt(h.name(), h.token()); // in order: the first that removed it
    }

    /**
     * Records one name's hold just taken and checks its fencing token against the valid holds it excludes.
     *
     * @return the violation, or null
     */
    String taken(Hold hold) {
        takenAt.put(hold, new long[] {
            clock == null ? nowMs : clock.getAsLong(), hold.lease().remaining().toMillis()
        });
        servers.taken(hold, takenAt.get(hold)[0]);
        String violation = null;
        // A hold a force-release took away before it reached its caller (its reply on the way) was granted before what
        // the server granted since: its token is judged in the server's grant order, not in the order the holds
        // reached their callers, so it is not held against holds returned meanwhile. A wiped one's still is, against
        // the holds taken before the wipe (a crash loses every reply in flight; only a relay within a client reaches
        // its caller after it): a counter that began again low after a wipe must not pass for a wiped hold's.
        if (hold.lease().isValid()
                && forcedAt(hold) < 0
                && (promotedAt(hold) < 0 || servers.missing(hold, takenAt.get(hold)[0]) == null)) {
            String name = hold.name();
            long token = hold.token();
            boolean shared = hold.kind().shared();
            // A hold relayed within its client without a round trip, from a block the server granted before a wipe,
            // may reach its caller after it: judged against the holds taken before that wipe.
            int wipe = wipeIndex(hold);
            Map<String, Long> all = wipe < 0 ? maxToken : beforeWipe.get(wipe).all();
            Map<String, Long> exclusive =
                    wipe < 0 ? maxExclusiveToken : beforeWipe.get(wipe).exclusive();
            long before = shared ? exclusive.getOrDefault(name, 0L) : all.getOrDefault(name, 0L);
            // a Redlock token is checked against every earlier hold where docs/redlock.md promises it ({@link
            // RedlockFences}): beyond that promise, masters that lost their data may lawfully let it fall
            if (hold.kind() != Kind.PERMIT && hold.kind() != Kind.REDLOCK && token <= before) {
                violation = "a " + hold.kind() + " hold of " + name + " took token " + token
                        + " after a conflicting hold had " + before;
            }
            maxToken.merge(name, token, Math::max);
            if (!shared) {
                maxExclusiveToken.merge(name, token, Math::max);
            }
        }
        held.computeIfAbsent(hold.name(), k -> new ArrayList<>()).add(hold);
        return violation;
    }

    /**
     * A {@code setPermits} of {@code name} begins: until one completes, the count in force is not known (an earlier
     * one's outcome may be unknown too).
     */
    void setPermitsStarted(String name) {
        lowered.remove(name);
    }

    /**
     * A {@code setPermits(count)} of {@code name} completed at world time {@code now}: the count is in force from now
     * until the next one begins. The calls of a name must come one after another from one client, so none sent
     * before (whose outcome its caller may not know) can land after this one: one link, in order.
     */
    void setPermitsDone(String name, int count, long now) {
        if (count < permits) {
            lowered.put(name, new long[] {count, now});
        }
    }

    /**
     * Checks a permit hold just taken against the count in force (DistributedSemaphore#setPermits: fewer permits
     * leave every holder its permits and let nobody in until the holders are within the new count): if a lowered
     * count was surely in force when its acquire began, at world time {@code started}, the holds its holders believe
     * valid, this one with them, must be within it. The last of them the server admitted met the count with all the
     * others already held.
     *
     * @return the violation, or null
     */
    String withinCount(Hold hold, long started) {
        long[] count = lowered.get(hold.name());
        if (count == null || started < count[1] || !hold.lease().isValid()) {
            return null;
        }
        long now = clock == null ? nowMs : clock.getAsLong();
        long valid = held.getOrDefault(hold.name(), List.of()).stream()
                .filter(h -> counted(h, now))
                .count();
        return valid <= count[0]
                ? null
                : valid + " valid permit holds of " + hold.name() + " after setPermits(" + count[0]
                        + ") was in force before the acquire of token " + hold.token() + " began (callers and tokens: "
                        + held.get(hold.name()).stream()
                                .filter(h -> counted(h, now))
                                .map(h -> h.caller() + "/" + h.token())
                                .toList()
                        + ")";
    }

    /**
     * Whether {@code h} counts at {@code nowMs} among the holds of its name: believed valid, not taken away by a wipe or
     * a force-release, nor by a promotion while the server does not hold it.
     */
    private boolean counted(Hold h, long nowMs) {
        return h.lease().isValid() && exemptSince(h) < 0 && !takenByPromotion(h, nowMs);
    }

    /**
     * Whether a promotion took {@code h} away and the server does not hold it at {@code nowMs} (for a mutex hold:
     * neither its token nor an older record of its owner, {@link ServerHolds#heldForOwner}).
     */
    private boolean takenByPromotion(Hold h, long nowMs) {
        return promotedAt(h) >= 0 && servers.missing(h, nowMs) != null && !servers.heldForOwner(h);
    }

    /** Whether every hold a caller has is believed valid for more than {@code nanos} (only long fixed leases). */
    boolean allLongerThan(long nanos) {
        return held.values().stream()
                .flatMap(List::stream)
                .allMatch(h -> h.lease().remaining().toNanos() > nanos);
    }

    /**
     * How many holds were seen believed valid after the server had lost them, by cause ({@code "restart without
     * data"}, {@code "force-release"}): the overlaps dlock does not exclude, which the run exempted.
     */
    Map<String, Long> exemptions() {
        Map<String, Long> out = new TreeMap<>();
        exempted.values().forEach(cause -> out.merge(cause, 1L, Long::sum));
        return out;
    }

    /** Forgets a hold its caller gives back. */
    void released(Hold hold) {
        held.get(hold.name()).remove(hold);
        takenAt.remove(hold);
        servers.forget(hold);
    }

    /** Whether no caller has a hold. */
    boolean isEmpty() {
        return held.values().stream().allMatch(List::isEmpty);
    }

    /**
     * Checks every name's holds that their holders believe valid.
     *
     * @param nowMs the server's clock
     * @return the first violation, or null
     */
    String check(long nowMs) {
        this.nowMs = nowMs;
        for (Map.Entry<String, List<Hold>> e : held.entrySet()) {
            int valid = 0;
            int exclusive = 0;
            for (Hold h : e.getValue()) {
                if (h.lease().isValid()) {
                    long since = exemptSince(h);
                    if (since >= 0) {
                        String cause = h.kind() == Kind.REDLOCK
                                ? "Redlock force-release"
                                : forcedAt(h) == since ? "force-release" : "restart without data";
                        exempted.put(h, cause);
                        String late = lateLoss(h, since, nowMs, cause);
                        if (late != null) {
                            return late;
                        }
                        continue; // taken away on the server: its holder has not learned it yet, within its bound
                    }
                    String server = servers.missing(h, nowMs);
                    if (server != null) {
                        long promotion = promotedAt(h);
                        if (promotion < 0) {
                            return "caller " + h.caller() + " believes its " + h.kind() + " hold of " + h.name()
                                    + " (token " + h.token() + ") valid for "
                                    + h.lease().remaining().toMillis() + " ms more, but " + server;
                        }
                        if (!servers.heldForOwner(h)) { // a promotion took it away: not kept without replicaAcks
                            exempted.put(h, "promotion");
                            String late = lateLoss(h, promotion, nowMs, "promotion");
                            if (late != null) {
                                return late;
                            }
                            continue;
                        }
                        // else held for its owner by an older record the promotion brought back: valid, exclusive
                    }
                    valid++;
                    if (!h.kind().shared()) {
                        exclusive++;
                    }
                }
            }
            if (valid == 0) {
                continue;
            }
            Kind kind = e.getValue().get(0).kind();
            if (kind == Kind.PERMIT ? valid > permits : exclusive > 0 && valid > 1) {
                return valid + " valid holds of " + e.getKey() + " at once (" + exclusive + " exclusive): "
                        + e.getValue();
            }
        }
        return null;
    }

    /**
     * Null if {@code h}, taken away on the server at {@code since} (a wipe or a force-release), may still be believed
     * valid at {@code nowMs}: until the lease it could have had then ends, with 100 ppm of drift and 2 ms to spare. A
     * watchdog's lease: a lease from then, as no renewal can succeed after it and every deadline counts from a request
     * sent before it; a fixed lease: its own end, as its holder believed it when the hold reached it. Else the
     * violation.
     */
    private String lateLoss(Hold h, long since, long nowMs, String cause) {
        long[] t = takenAt.get(h);
        long end = Math.max(since + leaseMillis, t[0] + t[1]);
        long bound = end + (end - Math.min(since, t[0])) / 10_000 + 2;
        return nowMs <= bound
                ? null
                : "caller " + h.caller() + " believes its " + h.kind() + " hold of " + h.name() + " (token " + h.token()
                        + ") valid for " + h.lease().remaining().toMillis() + " ms more at " + nowMs
                        + ", but the server lost it at " + since + " (" + cause + "; hold returned at " + t[0]
                        + "): past its bound " + bound + " (on the server now: "
                        + Objects.requireNonNullElse(servers.missing(h, nowMs), "held") + ")";
    }

    private long wipeAt(Hold h) {
        int i = wipeIndex(h);
        return i < 0 ? -1 : wipes.get(i)[0];
    }

    /** The first wipe that took {@code h} away (a single server's hold whose token is below its restart), or -1. */
    private int wipeIndex(Hold h) {
        if (h.kind() == Kind.REDLOCK) {
            return -1;
        }
        for (int i = 0; i < wipes.size(); i++) {
            if (h.token() < wipes.get(i)[1]) {
                return i;
            }
        }
        return -1;
    }
}
