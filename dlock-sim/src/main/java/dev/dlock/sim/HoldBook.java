package dev.dlock.sim;

import dev.dlock.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The holds a {@link Simulation}'s callers have, as they have them, and the invariants over them: no two holds of a
 * name that exclude each other valid at once by their holders' own view, permits never over the count, each hold a
 * holder believes valid held on the server (a shared hold also in a holders' hash that lives at least as long as its
 * entry), and a new hold's fencing token above every valid hold it excludes. Not thread-safe: a run is one thread's at a
 * time.
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

    private final SimRedis server;
    private final int permits;
    private final List<SimRedis> nodes; // Redlock's
    private final Map<String, List<Hold>> held = new LinkedHashMap<>();
    private final Map<String, Long> maxToken = new HashMap<>(); // of any valid hold of the name
    private final Map<String, Long> maxExclusiveToken = new HashMap<>();
    /** A semaphore's count lowered by setPermits, and the world time from which it is surely in force. */
    private final Map<String, long[]> lowered = new HashMap<>();

    /**
     * @param server the server the holds are taken on
     * @param permits the semaphores' permits
     * @param nodes Redlock's masters
     */
    HoldBook(SimRedis server, int permits, List<SimRedis> nodes) {
        this.server = server;
        this.permits = permits;
        this.nodes = nodes;
    }

    /**
     * Records one name's hold just taken and checks its fencing token against the valid holds it excludes.
     *
     * @return the violation, or null
     */
    String taken(Hold hold) {
        String violation = null;
        if (hold.lease().isValid()) {
            String name = hold.name();
            long token = hold.token();
            boolean shared = hold.kind().shared();
            long before = shared ? maxExclusiveToken.getOrDefault(name, 0L) : maxToken.getOrDefault(name, 0L);
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
        long valid = held.getOrDefault(hold.name(), List.of()).stream()
                .filter(h -> h.lease().isValid())
                .count();
        return valid <= count[0]
                ? null
                : valid + " valid permit holds of " + hold.name() + " after setPermits(" + count[0]
                        + ") was in force before the acquire of token " + hold.token() + " began (callers and tokens: "
                        + held.get(hold.name()).stream()
                                .filter(h -> h.lease().isValid())
                                .map(h -> h.caller() + "/" + h.token())
                                .toList()
                        + ")";
    }

    /** Whether every hold a caller has is believed valid for more than {@code nanos} (only long fixed leases). */
    boolean allLongerThan(long nanos) {
        return held.values().stream()
                .flatMap(List::stream)
                .allMatch(h -> h.lease().remaining().toNanos() > nanos);
    }

    /** Forgets a hold its caller gives back. */
    void released(Hold hold) {
        held.get(hold.name()).remove(hold);
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
        for (Map.Entry<String, List<Hold>> e : held.entrySet()) {
            int valid = 0;
            int exclusive = 0;
            for (Hold h : e.getValue()) {
                if (h.lease().isValid()) {
                    valid++;
                    if (!h.kind().shared()) {
                        exclusive++;
                    }
                    String server = serverSide(h, nowMs);
                    if (server != null) {
                        return "caller " + h.caller() + " believes its " + h.kind() + " hold of " + h.name()
                                + " (token " + h.token() + ") valid for "
                                + h.lease().remaining().toMillis() + " ms more, but " + server;
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

    /** Null if the server holds {@code h} for its holder, or what the server has instead. */
    private String serverSide(Hold h, long nowMs) {
        long token = h.token();
        if (h.kind() == Kind.REDLOCK) {
            return redlockSide(h);
        }
        if (h.kind() == Kind.MUTEX || h.kind() == Kind.MULTI) { // a multi-lock's part is its name's mutex
            // A pass within a client (pass.lua) writes the first token of a block and reserves the rest for the
            // client's own relays, made without a round trip: a hold relayed so has a later token of that block.
            Object lock = server.call("HGET", "dlock:{" + h.name() + "}", "token");
            long first = lock == null ? -1 : Long.parseLong(lock.toString());
            return lock != null && token >= first && token < first + RELAY_BLOCK
                    ? null
                    : "the server's lock has token " + lock;
        }
        Object all = server.call("HGETALL", "dlock:{" + h.name() + "}:holds");
        List<?> fields = all instanceof List<?> l ? l : List.of();
        for (int i = 1; i < fields.size(); i += 2) {
            String[] entry = fields.get(i).toString().split(" ");
            if (entry.length >= 3 && Long.parseLong(entry[1]) == token) {
                long expiry = Long.parseLong(entry[2]);
                if (expiry <= nowMs) {
                    return "the server's holder entry expired at " + entry[2] + " (now " + nowMs + ")";
                }
                // the hash must outlive every entry in it, or the entry goes before its lease ends
                long ttl = (Long) server.call("PTTL", "dlock:{" + h.name() + "}:holds");
                return ttl < 0 || nowMs + ttl >= expiry
                        ? null
                        : "the server's holders' hash expires at " + (nowMs + ttl) + ", before the holder's entry ("
                                + expiry + ")";
            }
        }
        return "the server has no holder with its token among " + fields;
    }

    /**
     * Null if a quorum of Redlock's masters hold the name's lock key (an owner id a lease does not show; exclusion
     * between owners is checked apart), or how many do.
     */
    private String redlockSide(Hold h) {
        int holding = 0;
        for (SimRedis node : nodes) {
            if (node.call("GET", "dlock:{" + h.name() + "}:redlock") != null) {
                holding++;
            }
        }
        int quorum = nodes.size() / 2 + 1;
        return holding >= quorum ? null : "only " + holding + " of " + nodes.size() + " masters hold the lock key";
    }
}
