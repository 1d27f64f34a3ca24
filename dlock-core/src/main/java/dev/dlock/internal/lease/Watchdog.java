package dev.dlock.internal.lease;

import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.LeaseTime;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Ticker;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Renews every renewable lease of one client, in one script call per batch of {@value #BATCH} leases
 * of one node of a Redis 7 cluster, else of one hash slot, once per third of the lease time; and marks lost every lease whose deadline passed
 * without a renewal (after a pause of this JVM, or while Redis did not answer). A lease is lost at
 * the latest at its deadline, never later than Redis may let its key expire.
 */
public final class Watchdog {
    static final int BATCH = 1000;

    private final ScriptRunner scripts;
    private final Ticker ticker;
    private final Transport transport; // for the slot and node of a key
    private final LeaseTime leaseTime;
    private final Events events;
    private final Set<RedisLease> leases = ConcurrentHashMap.newKeySet();
    /** The order of a round: by name, token and owner, the same in every run (the set's follows identity hashes). */
    private static final Comparator<RedisLease> ROUND_ORDER = Comparator.comparing(
                    (RedisLease l) -> l.keys().name())
            .thenComparingLong(RedisLease::fencingToken)
            .thenComparing(RedisLease::owner);

    public Watchdog(ScriptRunner scripts, Ticker ticker, Transport transport, LeaseTime leaseTime, Events events) {
        this.scripts = scripts;
        this.ticker = ticker;
        this.transport = transport;
        this.leaseTime = leaseTime;
        this.events = events;
    }

    void add(RedisLease lease) {
        leases.add(lease);
    }

    void remove(RedisLease lease) {
        leases.remove(lease);
    }

    /** The leases it renews, in {@link #ROUND_ORDER}. */
    List<RedisLease> leases() {
        List<RedisLease> all = new ArrayList<>(leases);
        all.sort(ROUND_ORDER);
        return all;
    }

    /**
     * One round: expire overdue leases, then renew the rest in batches, per renewal script and node
     * (where one script may span a node's slots: {@link Transport#crossSlotNode}) or slot.
     */
    public void tick() {
        long now = ticker.nanos();
        // In an order of the leases' own (not the set's, which follows identity hashes), so that the same holds
        // are expired and renewed in the same order in every run: a simulation's seed repeats its trace.
        List<RedisLease> round = leases();
        Map<Script, Map<Object, List<RedisLease>>> byKind = new LinkedHashMap<>();
        for (RedisLease lease : round) {
            if (lease.deadline() - now <= 0) {
                lease.expire("it could not be renewed before its lease of " + lease.leaseMillis() + " ms ran out");
            } else if (lease.isRenewed() && lease.isHeld()) {
                byKind.computeIfAbsent(lease.kind().renewScript(), s -> new LinkedHashMap<>())
                        .computeIfAbsent(groupOf(lease.keys().lock()), g -> new ArrayList<>())
                        .add(lease);
            }
        }
        byKind.forEach((script, groups) -> {
            for (List<RedisLease> group : groups.values()) {
                for (int from = 0; from < group.size(); from += BATCH) {
                    renew(script, group.subList(from, Math.min(group.size(), from + BATCH)), leaseTime.millis());
                }
            }
        });
    }

    /** The node of a key where a script may span its slots, else the key's slot. */
    private Object groupOf(String key) {
        String node = transport.crossSlotNode(key);
        return node != null ? node : Integer.valueOf(transport.slot(key));
    }

    /** Renews one lease now (a thread re-entering it); true when Redis still had it for its owner. */
    CompletableFuture<Boolean> renewNow(RedisLease lease) {
        return setTtl(lease, leaseTime.arg(lease.leaseMillis()));
    }

    /**
     * Sets one lease's key to expire {@code millisArg} ms from now, owner-checked ({@code renew.lua} with
     * one key): its renewal, or {@code Lease.expireIn}. True when Redis still had the key for the owner.
     */
    CompletableFuture<Boolean> setTtl(RedisLease lease, String millisArg) {
        String key = lease.kind().renewKey(lease);
        return scripts.evalGranting(
                        lease.kind().renewScript(), new String[] {key}, new String[] {millisArg, lease.owner()})
                .thenApply(replicated -> {
                    boolean ours = ((Long) ((List<?>) replicated.reply()).get(0)) == 1L;
                    if (ours && !scripts.acknowledged(replicated)) {
                        throw scripts.notAcknowledged(
                                key,
                                replicated,
                                "the new expiry of '" + lease.keys().name() + "'");
                    }
                    return ours;
                });
    }

    /** Renews a batch of one node or slot: in one call, or where the node's call fails, one per slot. */
    private void renew(Script script, List<RedisLease> batch, long leaseMillis) {
        Map<Integer, List<RedisLease>> bySlot = new LinkedHashMap<>();
        for (RedisLease lease : batch) {
            bySlot.computeIfAbsent(transport.slot(lease.keys().lock()), s -> new ArrayList<>())
                    .add(lease);
        }
        if (bySlot.size() == 1) {
            renewInOneSlot(script, batch, leaseMillis);
            return;
        }
        String[] keys = keysOf(batch);
        String[] args = new String[2 * batch.size()];
        args[0] = leaseTime.arg(leaseMillis);
        for (int i = 0; i < batch.size(); i++) {
            args[i + 1] = batch.get(i).owner();
        }
        System.arraycopy(keys, 1, args, batch.size() + 1, keys.length - 1);
        long sentAt = ticker.nanos();
        scripts.evalGranting(Scripts.crossSlot(script), new String[] {keys[0]}, args)
                .whenComplete((replicated, error) -> {
                    if (error != null) {
                        // A slot moved off the node this client thought served it (a resharding or a
                        // failover under way): each slot's call is routed, and redirected, on its own.
                        Log.LOG.log(
                                System.Logger.Level.DEBUG,
                                "dlock renews {0} lease(s) of {1} slots one slot at a time: {2}",
                                batch.size(),
                                bySlot.size(),
                                error.toString());
                        bySlot.values().forEach(slot -> renewInOneSlot(script, slot, leaseMillis));
                        return;
                    }
                    settle(batch, keys[0], sentAt, replicated, null);
                });
    }

    private void renewInOneSlot(Script script, List<RedisLease> batch, long leaseMillis) {
        String[] keys = keysOf(batch);
        String[] args = new String[batch.size() + 1];
        args[0] = leaseTime.arg(leaseMillis);
        for (int i = 0; i < keys.length; i++) {
            args[i + 1] = batch.get(i).owner();
        }
        long sentAt = ticker.nanos();
        scripts.evalGranting(script, keys, args)
                .whenComplete((replicated, error) -> settle(batch, keys[0], sentAt, replicated, error));
    }

    private static String[] keysOf(List<RedisLease> batch) {
        String[] keys = new String[batch.size()];
        for (int i = 0; i < keys.length; i++) {
            RedisLease lease = batch.get(i);
            keys[i] = lease.kind().renewKey(lease);
        }
        return keys;
    }

    /** Marks each lease of a renewal call renewed or lost by its answer; a failed call is retried next round. */
    private void settle(List<RedisLease> batch, String firstKey, long sentAt, Replicated replicated, Throwable error) {
        if (error == null && !scripts.acknowledged(replicated)) {
            error = scripts.notAcknowledged(firstKey, replicated, "a renewal of " + batch.size() + " lease(s)");
        }
        events.renewal(batch.size(), error == null);
        if (error != null) {
            // Retried next round; the deadline check marks a lease lost if it keeps failing.
            Log.LOG.log(
                    System.Logger.Level.WARNING,
                    "dlock could not renew {0} lease(s) ({1}); retrying in a third of the lease time",
                    batch.size(),
                    error.toString());
            return;
        }
        List<?> results = (List<?>) replicated.reply();
        for (int i = 0; i < batch.size(); i++) {
            RedisLease lease = batch.get(i).newest(); // relayed meanwhile: same hold, same owner
            if (((Long) results.get(i)) == 1L) {
                lease.renewed(sentAt);
            } else {
                lease.markLost("the renewal found the key gone or owned by another owner");
            }
        }
    }
}
