package dev.dlock.sim;

import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.spi.RedisReplyException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Failovers of a {@link Simulation}'s single server: now and then ({@code promoteEverySeconds} on average) its master
 * dies and its {@link SimReplica} is promoted in its place. Every client connection is cut with what is in flight on it
 * (nothing more runs on the old master), connects are refused for 50 ms to 3 s, and the server comes back at the same
 * address with the data its replica had applied when the master died, nothing else (the clients reach the single server
 * at one address: this stands for Sentinel sending them to the promoted replica). A fresh replica syncs from it after
 * 50 ms to 1 s, or one time in four up to three leases: until then every {@code WAIT} times out with 0. Half the
 * promotions come while the replica is held back (the master dies up to three leases into a hold-back), so that what
 * the replica lacks is more than the last few milliseconds. The promoted server's clock is the old master's, the world's
 * (no skew: see {@link SimReplica}).
 *
 * <p>The run's {@link HoldBook} is told, as the master dies, which records the promotion takes away: per name, the
 * tokens of the holds whose record the replica lacked or had with an earlier end ({@link HoldBook#promoted}). Not
 * thread-safe: a run is one thread's at a time.
 */
final class Promotions {
    private static final long MS = 1_000_000;

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final SimRedis server;
    private final SimReplica replica;
    private final SimClients builder;
    private final SingleServerFaults faults;
    private final long epochMs;
    private long promotions;
    private long survivors; // holds of replicaAcks clients believed valid across a promotion, and held after it

    /**
     * @param run the run whose book, trace and state these use
     * @param config its config
     * @param loop its world
     * @param server the single server
     * @param replica its replica
     * @param builder the clients' builder, which knows their networks to the server
     * @param faults the server's other faults, with which no promotion overlaps
     * @param epochMs the server's clock at the world's time 0
     */
    Promotions(
            Simulation run,
            SimConfig config,
            EventLoop loop,
            SimRedis server,
            SimReplica replica,
            SimClients builder,
            SingleServerFaults faults,
            long epochMs) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.server = server;
        this.replica = replica;
        this.builder = builder;
        this.faults = faults;
        this.epochMs = epochMs;
    }

    /** How many promotions there were. */
    long promotions() {
        return promotions;
    }

    /**
     * How many holds of clients built with {@code replicaAcks} were believed valid when a master died and were still
     * believed valid, and held by the server, when it came back with its replica's data.
     */
    long ackedSurvivors() {
        return survivors;
    }

    /** Schedules the promotions, from {@code own}'s draws. */
    void start(SplittableRandom own) {
        if (config.promoteEverySeconds() <= 0) {
            return;
        }
        long gap = EventLoop.gapNanos(own, config.promoteEverySeconds());
        loop.after(gap, () -> {
            if (run.draining()) {
                return;
            }
            if (!possible()) {
                start(own);
                return;
            }
            if (own.nextBoolean()) { // the master dies while its replica is held back
                long hold = own.nextLong(100, 3 * config.leaseMillis() + 1) * MS;
                replica.holdBack(hold);
                loop.after(own.nextLong(0, hold), () -> {
                    if (run.draining()) {
                        return;
                    }
                    if (possible()) {
                        promote(own);
                    } else {
                        start(own);
                    }
                });
            } else {
                promote(own);
            }
        });
    }

    /**
     * Whether a promotion may come now: not while the server is down (a crash or a promotion under way), nor without
     * a replica (one syncing), nor in a suspended week (as for a crash: no outage spans one).
     */
    private boolean possible() {
        return !faults.serverDown() && replica.attached() && !run.weeks().pausing();
    }

    private void promote(SplittableRandom own) {
        long nowMs = epochMs + loop.now() / MS;
        SimRedis data = replica.detach();
        Map<String, Set<Long>> lost = lostRecords(server, data);
        Set<Hold> acked = run.book().ackedValid();
        run.book().promoted(nowMs, lost);
        long down = own.nextLong(50, 3000) * MS;
        for (LoopNetwork network : builder.networksTo(server)) {
            network.crash(SimNetwork.Link.COMMANDS, down);
            network.crash(SimNetwork.Link.PUBSUB, down);
        }
        faults.serverDown(true);
        promotions++;
        run.observe(-7, down / MS, lost.size());
        loop.after(down, () -> {
            server.restartWith(data);
            faults.serverDown(false);
            run.book().promotedServerBack(nowMs, epochMs + loop.now() / MS);
            survivors += run.book().ackedSurvivors(acked, epochMs + loop.now() / MS);
            long resync =
                    own.nextInt(4) == 0 ? own.nextLong(1000, 3 * config.leaseMillis() + 1) : own.nextLong(50, 1000);
            loop.after(resync * MS, replica::sync);
            start(own);
        });
    }

    /**
     * Per name, the tokens of the records {@code master} has that {@code promoted} lacks or has with an earlier end:
     * a mutex's lock (its token and the rest of its relay block, {@link HoldBook#RELAY_BLOCK}), a shared lock's holder
     * entries (each ending at its own expiry or its hash's, whichever is first).
     */
    static Map<String, Set<Long>> lostRecords(SimRedis master, SimRedis promoted) {
        Map<String, Set<Long>> lost = new TreeMap<>();
        for (String key : master.keys()) {
            if (!key.startsWith("dlock:{")) {
                continue;
            }
            String name = key.substring(key.indexOf('{') + 1, key.lastIndexOf('}'));
            if (key.endsWith("}")) {
                Object token = field(master, key, "token");
                if (token != null
                        && (!token.equals(field(promoted, key, "token")) || end(promoted, key) < end(master, key))) {
                    long first = Long.parseLong(token.toString());
                    Set<Long> block = lost.computeIfAbsent(name, k -> new HashSet<>());
                    for (int i = 0; i < HoldBook.RELAY_BLOCK; i++) {
                        block.add(first + i);
                    }
                }
            } else if (key.endsWith("}:holds")) {
                Map<String, String[]> had = entries(master, key);
                Map<String, String[]> has = entries(promoted, key);
                long hadHash = end(master, key);
                long hasHash = end(promoted, key);
                had.forEach((owner, entry) -> {
                    String[] now = has.get(owner);
                    long before = Math.min(Long.parseLong(entry[2]), hadHash);
                    long after = now == null || !now[1].equals(entry[1])
                            ? Long.MIN_VALUE
                            : Math.min(Long.parseLong(now[2]), hasHash);
                    if (after < before) {
                        lost.computeIfAbsent(name, k -> new HashSet<>()).add(Long.parseLong(entry[1]));
                    }
                });
            }
        }
        return lost;
    }

    private static Object field(SimRedis server, String key, String field) {
        try {
            return server.call("HGET", key, field);
        } catch (RedisReplyException e) { // not a hash
            return null;
        }
    }

    /** When {@code key} ends on the server's clock (ms): gone already, never, or now plus its PTTL. */
    private static long end(SimRedis server, String key) {
        long pttl = (Long) server.call("PTTL", key);
        return pttl == -2 ? Long.MIN_VALUE : pttl == -1 ? Long.MAX_VALUE : server.now() + pttl;
    }

    /** A holders' hash's entries ({@code weight token expiry [g]}), by owner. */
    private static Map<String, String[]> entries(SimRedis server, String key) {
        Map<String, String[]> out = new TreeMap<>();
        Object all;
        try {
            all = server.call("HGETALL", key);
        } catch (RedisReplyException e) {
            return out;
        }
        List<?> fields = all instanceof List<?> l ? l : List.of();
        for (int i = 1; i < fields.size(); i += 2) {
            String[] entry = fields.get(i).toString().split(" ");
            if (entry.length >= 3) {
                out.put(fields.get(i - 1).toString(), entry);
            }
        }
        return out;
    }
}
