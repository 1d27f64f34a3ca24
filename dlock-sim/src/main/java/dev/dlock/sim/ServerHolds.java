package dev.dlock.sim;

import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whether the servers hold a hold its holder believes valid, for {@link HoldBook}: a mutex's (or a multi-lock's part's)
 * token in the name's lock hash, or a later one of the relay block it names; a shared hold's live entry in the
 * holders' hash, which must live at least as long as the entry; a Redlock hold's attempt's owner id in the name's lock
 * key on a quorum of masters. Not thread-safe: a run is one thread's at a time.
 */
final class ServerHolds {
    private final SimRedis server;
    private final List<SimRedis> nodes; // Redlock's masters
    /** A Redlock hold's attempt's owner id, which each master's lock key holds while the hold lasts. */
    private final Map<Hold, String> redlockOwners = new IdentityHashMap<>();
    /** A mutex hold's owner id, as its record named it when the hold was taken. */
    private final Map<Hold, String> mutexOwners = new IdentityHashMap<>();

    /**
     * @param server the single server
     * @param nodes Redlock's masters
     */
    ServerHolds(SimRedis server, List<SimRedis> nodes) {
        this.server = server;
        this.nodes = nodes;
    }

    /** The Redlock hold {@code hold} was made by the attempt of owner id {@code owner}. */
    void redlockOwner(Hold hold, String owner) {
        redlockOwners.put(hold, owner);
    }

    /** The owner id of the attempt that made the Redlock hold {@code hold}, or null if not known. */
    String redlockOwner(Hold hold) {
        return redlockOwners.get(hold);
    }

    /**
     * A hold just taken, at the single server's clock {@code nowMs}: for a mutex's (or a multi-lock part's), the owner
     * id its record names, if the record is the hold's.
     */
    void taken(Hold hold, long nowMs) {
        if (mutex(hold) && missing(hold, nowMs) == null) {
            mutexOwners.put(hold, String.valueOf(server.call("HGET", lockKey(hold), "owner")));
        }
    }

    /**
     * Whether the single server's record of a mutex hold's name names the owner id it named when the hold was taken,
     * with an earlier token: an older record of that owner (the hold before a release, or the block before a pass
     * within the client) that a promotion brought back. The holder's renewals, checked by owner id, keep it: the server
     * holds the name for the holder, with the earlier token.
     */
    boolean heldForOwner(Hold hold) {
        String owner = mutexOwners.get(hold);
        if (owner == null) {
            return false;
        }
        Object token = server.call("HGET", lockKey(hold), "token"); // the scripts' commands only: no HMGET here
        return owner.equals(server.call("HGET", lockKey(hold), "owner"))
                && token != null
                && Long.parseLong(token.toString()) < hold.token();
    }

    /** Forgets a hold its caller gave back. */
    void forget(Hold hold) {
        redlockOwners.remove(hold);
        mutexOwners.remove(hold);
    }

    /** Whether {@code hold} is a mutex's: a multi-lock's part is its name's mutex. */
    private static boolean mutex(Hold hold) {
        return hold.kind() == Kind.MUTEX || hold.kind() == Kind.MULTI;
    }

    private static String lockKey(Hold hold) {
        return "dlock:{" + hold.name() + "}";
    }

    private static String holdersKey(Hold hold) {
        return lockKey(hold) + ":holds";
    }

    /**
     * Null if the servers hold {@code h} for its holder at the single server's clock {@code nowMs}, or what they have
     * instead.
     */
    String missing(Hold h, long nowMs) {
        long token = h.token();
        if (h.kind() == Kind.REDLOCK) {
            return redlockMissing(h);
        }
        if (mutex(h)) {
            // A pass within a client (pass.lua) writes the first token of a block and reserves the rest for the
            // client's own relays, made without a round trip: a hold relayed so has a later token of that block.
            Object lock = server.call("HGET", lockKey(h), "token");
            long first = lock == null ? -1 : Long.parseLong(lock.toString());
            return lock != null && token >= first && token < first + HoldBook.RELAY_BLOCK
                    ? null
                    : "the server's lock has token " + lock;
        }
        Object all = server.call("HGETALL", holdersKey(h));
        List<?> fields = all instanceof List<?> l ? l : List.of();
        for (int i = 1; i < fields.size(); i += 2) {
            String[] entry = fields.get(i).toString().split(" ");
            if (entry.length >= 3 && Long.parseLong(entry[1]) == token) {
                long expiry = Long.parseLong(entry[2]);
                if (expiry <= nowMs) {
                    return "the server's holder entry expired at " + entry[2] + " (now " + nowMs + ")";
                }
                // the hash must outlive every entry in it, or the entry goes before its lease ends
                long ttl = (Long) server.call("PTTL", holdersKey(h));
                return ttl < 0 || nowMs + ttl >= expiry
                        ? null
                        : "the server's holders' hash expires at " + (nowMs + ttl) + ", before the holder's entry ("
                                + expiry + ")";
            }
        }
        return "the server has no holder with its token among " + fields;
    }

    /**
     * Null if a quorum of Redlock's masters hold the name's lock key for the hold's owner id (any owner's if it is not
     * known), or how many do.
     */
    private String redlockMissing(Hold h) {
        String owner = redlockOwners.get(h);
        int holding = 0;
        for (SimRedis node : nodes) {
            Object key = node.call("GET", "dlock:{" + h.name() + "}:redlock");
            if (key != null && (owner == null || owner.equals(key.toString()))) {
                holding++;
            }
        }
        int quorum = nodes.size() / 2 + 1;
        return holding >= quorum
                ? null
                : "only " + holding + " of " + nodes.size() + " masters hold the lock key for its owner " + owner;
    }
}
