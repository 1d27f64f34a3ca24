package dev.dlock.internal;

import dev.dlock.spi.Script;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToIntFunction;

/**
 * Renews every renewable lease of one client, in one script call per hash slot and batch of {@value
 * #BATCH} leases, once per third of the lease time; and marks lost every lease whose deadline passed
 * without a renewal (after a pause of this JVM, or while Redis did not answer). A lease is lost at
 * the latest at its deadline, never later than Redis may let its key expire.
 */
final class Watchdog {
    static final int BATCH = 1000;

    private final ScriptRunner scripts;
    private final Ticker ticker;
    private final ToIntFunction<String> slot; // the hash slot of a key (the transport's)
    private final LeaseTime leaseTime;
    private final Events events;
    private final Set<RedisLease> leases = ConcurrentHashMap.newKeySet();

    Watchdog(ScriptRunner scripts, Ticker ticker, ToIntFunction<String> slot, LeaseTime leaseTime, Events events) {
        this.scripts = scripts;
        this.ticker = ticker;
        this.slot = slot;
        this.leaseTime = leaseTime;
        this.events = events;
    }

    void add(RedisLease lease) {
        leases.add(lease);
    }

    void remove(RedisLease lease) {
        leases.remove(lease);
    }

    Set<RedisLease> leases() {
        return leases;
    }

    /** One round: expire overdue leases, then renew the rest in batches, per renewal script and slot. */
    void tick() {
        long now = ticker.nanos();
        Map<Script, Map<Integer, List<RedisLease>>> byKind = new HashMap<>();
        for (RedisLease lease : leases) {
            if (lease.deadline() - now <= 0) {
                lease.expire("it could not be renewed before its lease of " + lease.leaseMillis() + " ms ran out");
            } else if (lease.isRenewed() && lease.isHeld()) {
                byKind.computeIfAbsent(lease.kind().renewScript(), s -> new HashMap<>())
                        .computeIfAbsent(slot.applyAsInt(lease.keys().lock()), s -> new ArrayList<>())
                        .add(lease);
            }
        }
        byKind.forEach((script, bySlot) -> {
            for (List<RedisLease> slot : bySlot.values()) {
                for (int from = 0; from < slot.size(); from += BATCH) {
                    renew(script, slot.subList(from, Math.min(slot.size(), from + BATCH)), leaseTime.millis());
                }
            }
        });
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

    private void renew(Script script, List<RedisLease> batch, long leaseMillis) {
        String[] keys = new String[batch.size()];
        String[] args = new String[batch.size() + 1];
        args[0] = leaseTime.arg(leaseMillis);
        for (int i = 0; i < keys.length; i++) {
            RedisLease lease = batch.get(i);
            keys[i] = lease.kind().renewKey(lease);
            args[i + 1] = lease.owner();
        }
        long sentAt = ticker.nanos();
        scripts.evalGranting(script, keys, args).whenComplete((replicated, error) -> {
            if (error == null && !scripts.acknowledged(replicated)) {
                error = scripts.notAcknowledged(keys[0], replicated, "a renewal of " + batch.size() + " lease(s)");
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
        });
    }
}
