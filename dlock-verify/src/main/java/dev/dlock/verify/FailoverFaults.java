package dev.dlock.verify;

import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.RespConnection;
import dev.dlock.testkit.SentinelSetup;
import dev.dlock.testkit.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Sentinel deployment of one failover scenario (a master, one replica and three sentinels, started for the
 * scenario and closed with it) and the faults that fail its master over. The scenario's lock clients reach it through
 * {@link #uri()}; the fenced resource stays on the run's own server. Every fault ends with the old master rejoined as a
 * replica of the new one and the replica in sync, and that moment is the fault's heal and liveness reference: until
 * then a client with {@code replicaAcks(1)} has no replica to acknowledge its writes.
 *
 * <p><b>Partition.</b> For {@link Fault#FAILOVER_PARTITION} every data node is fronted by a {@link TcpProxy} (see
 * {@link SentinelSetup.Builder#fronted}): the sentinels, the replica and every client reach a node only through its
 * front, so cutting the master's front cuts it off from all of them at once, while this class keeps talking to it
 * directly (the operator's side). One client, the minority one (named {@code minorityName}), reaches the sentinels
 * through proxies of its own ({@link #minorityUri()}): the partition cuts those and spares its open connections to the
 * master, the client on the master's side of the partition. Used by one thread.
 */
final class FailoverFaults implements AutoCloseable {

    /**
     * The fixed lease of the hold stalled across {@link Fault#FAILOVER_HOLD_BACK}: it outlives the failover and is never
     * renewed, so its holder does not learn of the loss and the overlap with the next holder is certain.
     */
    static final Duration HOLDER_LEASE = Duration.ofSeconds(10);

    /** How long that hold stalls after its read: past the failover (about 3 s) and the next holder's grant. */
    static final Duration HOLDER_STALL = Duration.ofSeconds(7);

    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(30);

    /**
     * How many TTLs a partition outlasts the promotion: long enough for the majority clients to reconnect to the new
     * master and take the lock there while the minority client still holds it on the old one. Healed at the promotion,
     * the old master was demoted before the others reconnected (seed 1: no grant on the new master before the heal).
     */
    static final int PARTITION_AFTER_PROMOTION = 3;

    private final SentinelSetup setup;
    private final Duration ttl;
    private final Map<Integer, TcpProxy> fronts; // by data node port; empty unless partitioned
    private final List<TcpProxy> minoritySentinels = new ArrayList<>();
    private final String minorityName;
    private final List<String> notes = new ArrayList<>();
    private final List<FaultInjector.Injected> unscheduled = new ArrayList<>();
    private final long started = System.nanoTime();
    private long lastHeal;

    private FailoverFaults(SentinelSetup setup, Duration ttl, Map<Integer, TcpProxy> fronts, String minorityName) {
        this.setup = setup;
        this.ttl = ttl;
        this.fronts = fronts;
        this.minorityName = minorityName;
    }

    /**
     * Starts the deployment (down after 1 s, failover timeout 3 s: the testkit's defaults) and has its replica
     * acknowledge one write ({@code WAIT}) before any client starts; the time it took is noted. On a fresh deployment
     * that first acknowledgement took up to 0.7 s (most often 0–1 ms), which refused the first acquires of {@code
     * replicaAcks} clients with no fault near. With {@code partitioned}, the data nodes are fronted and the minority
     * client's sentinel proxies started (see the class comment).
     */
    static FailoverFaults start(Duration ttl, boolean partitioned, String minorityName) {
        Map<Integer, TcpProxy> fronts = new ConcurrentHashMap<>();
        SentinelSetup.Builder builder = SentinelSetup.builder().replicas(1).masterName("dlock-verify");
        if (partitioned) {
            builder.fronted(port -> {
                try {
                    TcpProxy front = new TcpProxy("127.0.0.1", port);
                    fronts.put(port, front);
                    return front.port();
                } catch (IOException e) {
                    throw new UncheckedIOException("no front proxy for data node " + port, e);
                }
            });
        }
        SentinelSetup setup;
        try {
            setup = builder.start();
        } catch (RuntimeException e) {
            fronts.values().forEach(TcpProxy::close);
            throw e;
        }
        FailoverFaults faults = new FailoverFaults(setup, ttl, fronts, minorityName);
        try {
            if (partitioned) {
                for (RedisServer sentinel : setup.sentinels()) {
                    faults.minoritySentinels.add(new TcpProxy(sentinel.host(), sentinel.port()));
                }
            }
        } catch (IOException e) {
            faults.close();
            throw new UncheckedIOException("no proxy to a sentinel for the minority client", e);
        }
        RedisServer master = faults.setup.currentMaster();
        // one connection: WAIT counts the acknowledgements of its own connection's writes
        try (RespConnection connection =
                RespConnection.open(master.host(), master.port(), null, Duration.ofSeconds(15))) {
            connection.call("SET", "dlock-verify:primed", "1");
            long began = System.nanoTime();
            Object acked = connection.call("WAIT", "1", "10000");
            faults.notes.add(String.format(
                    "first WAIT of the fresh deployment: %s replica(s) in %.0f ms",
                    acked, (System.nanoTime() - began) / 1e6));
            connection.call("DEL", "dlock-verify:primed");
        } catch (IOException | RuntimeException e) {
            faults.close();
            throw new IllegalStateException("the fresh Sentinel deployment's replica did not acknowledge a write", e);
        }
        return faults;
    }

    /** The {@code redis-sentinel://} URI of the deployment. */
    String uri() {
        return setup.uri();
    }

    /** The {@code redis-sentinel://} URI of the minority client: its sentinels' proxies, which a partition cuts. */
    String minorityUri() {
        if (minoritySentinels.isEmpty()) {
            throw new IllegalStateException("only a partitioned deployment has a minority client");
        }
        List<String> hosts = new ArrayList<>();
        for (TcpProxy proxy : minoritySentinels) {
            hosts.add("127.0.0.1:" + proxy.port());
        }
        return "redis-sentinel://" + String.join(",", hosts) + "#" + setup.masterName();
    }

    /** What the faults measured, one line each, for the report. */
    List<String> notes() {
        return List.copyOf(notes);
    }

    /**
     * Takes the failovers the sentinels made on their own (fault {@link Fault#FAILOVER_UNSCHEDULED}) seen since the
     * last call, for the history: without them, the acquires a {@code replicaAcks} client is refused while the demoted
     * master resynchronises would be liveness violations "with no fault near".
     *
     * @return the unscheduled failovers seen, oldest first; each spans from the heal before it to its own heal
     */
    List<FaultInjector.Injected> takeUnscheduled() {
        List<FaultInjector.Injected> seen = List.copyOf(unscheduled);
        unscheduled.clear();
        return seen;
    }

    /**
     * Looks once for a failover the sentinels made on their own since the last fault, as each fault does before it
     * starts; the scenario's end calls it, so that one after the last fault is recorded too. When there was one, it
     * waits for the replica to be in sync and for TTL + 1.5 s more (the lock must be taken again in TTL + 1 s).
     *
     * @return whether there was one ({@link #takeUnscheduled()} has it)
     */
    boolean lookForUnscheduled() {
        awaitAgreedMaster(); // mid-failover the sentinels disagree, and one look would miss it
        RedisServer moved;
        try {
            moved = setup.awaitFailover(Duration.ofMillis(1)); // one look: returns only if it moved
        } catch (IllegalStateException e) {
            return false; // no failover since the last one the setup saw: the usual case
        }
        long since = lastHeal != 0 ? lastHeal : started;
        setup.awaitReplicasInSync();
        long heal = System.nanoTime();
        lastHeal = heal;
        unscheduled.add(new FaultInjector.Injected(Fault.FAILOVER_UNSCHEDULED, since, heal, heal, null));
        notes.add(String.format(
                "the sentinels had failed over on their own, to port %d, in the %.1f s before it was seen; recorded"
                        + " as fault %s",
                moved.port(), (heal - since) / 1e9, Fault.FAILOVER_UNSCHEDULED.label()));
        FaultInjector.sleep(Duration.ofNanos(Math.max(0, heal + ttl.toNanos() + 1_500_000_000L - System.nanoTime())));
        return true;
    }

    FaultInjector.Injected inject(Fault fault, FaultInjector.Proxied holder) {
        // the schedule counts acquire attempts, which acknowledged clients refused during a fault make fast: without a
        // pause the next fault would start at the heal, before the lock could be taken again (checker 5's bound)
        if (lastHeal != 0) {
            long until = lastHeal + ttl.toNanos() + 1_500_000_000L;
            FaultInjector.sleep(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
        }
        return switch (fault) {
            case FAILOVER_KILL -> {
                RedisServer master = settle();
                long start = System.nanoTime();
                master.kill();
                yield failover(fault, master, start, "", () -> {});
            }
            case FAILOVER_PAUSE -> {
                // paused past down-after: the sentinels promote the replica; rejoin resumes the old master and
                // demotes it, and whatever its clients sent meanwhile runs on it first, still as a master
                RedisServer master = settle();
                long start = System.nanoTime();
                master.pause();
                yield failover(fault, master, start, "", () -> {});
            }
            case FAILOVER_HOLD_BACK -> holdBack(fault, holder);
            case FAILOVER_PARTITION -> partition(fault);
            default -> throw new IllegalArgumentException(fault + " is not a failover fault");
        };
    }

    /**
     * Quiesces (the replica has everything written so far), holds the replica back, and asks the fixed-lease holder
     * for a hold whose acquire begins after that: its grant exists on the master only. Then kills the master, releases
     * the replica and lets the sentinels promote it, without the grant. With {@code replicaAcks(1)} the holder's
     * acquire is refused instead ({@code REFUSED}), and the same failover follows.
     */
    private FaultInjector.Injected holdBack(Fault fault, FaultInjector.Proxied holder) {
        if (holder.worker() == null) {
            return FaultInjector.skipped(fault, "the scenario has no fixed-lease holder to stall");
        }
        RedisServer master = settle();
        RedisServer replica = setup.dataNodes().stream()
                .filter(node -> node != master)
                .findFirst()
                .orElseThrow();
        long start = System.nanoTime();
        SentinelSetup.HeldBackReplica hold = setup.holdBack(replica);
        String said;
        try {
            said = holder.heldOrRefused(
                    HOLDER_STALL, HOLDER_LEASE, ttl.multipliedBy(10).plusSeconds(10));
        } catch (RuntimeException e) {
            hold.release();
            throw e;
        }
        if (said == null) {
            hold.release();
            return FaultInjector.skipped(fault, "the fixed-lease holder neither held the lock nor was refused");
        }
        master.kill();
        hold.release();
        return failover(fault, master, start, "; holder said " + FaultInjector.firstLine(said), () -> {});
    }

    /**
     * Cuts the master's front (every connection to it but the minority client's, which the master lists under its
     * name) and the minority client's sentinel proxies; the sentinels, no longer reaching the master, promote the
     * replica, whose link to the master was cut too; the majority clients reconnect and the sentinels name the new
     * master. The partition lasts {@link #PARTITION_AFTER_PROMOTION} TTLs past the promotion, then heals and the old
     * master is rejoined: until then the minority client is served by the old master and the others by the new one
     * (the split brain), and with {@code replicaAcks(1)} neither master has a replica to acknowledge a grant.
     */
    private FaultInjector.Injected partition(Fault fault) {
        if (fronts.isEmpty()) {
            return FaultInjector.skipped(fault, "the deployment's data nodes have no fronts to cut");
        }
        RedisServer master = settle();
        TcpProxy front = fronts.get(master.port());
        Set<Integer> minority = minorityLinks(master);
        long start = System.nanoTime();
        front.cut(minority);
        minoritySentinels.forEach(proxy -> proxy.cut(Set.of()));
        Runnable heal = () -> {
            FaultInjector.sleep(ttl.multipliedBy(PARTITION_AFTER_PROMOTION));
            front.heal();
            minoritySentinels.forEach(TcpProxy::heal);
        };
        return failover(
                fault,
                master,
                start,
                "; healed " + PARTITION_AFTER_PROMOTION + " TTL after the promotion; " + minority.size()
                        + " connection(s) of the minority client kept to the old master",
                heal);
    }

    /** The local ports of the front's connections to {@code master} that the minority client opened. */
    private Set<Integer> minorityLinks(RedisServer master) {
        Set<Integer> ports = new HashSet<>();
        for (String line : String.valueOf(master.command("CLIENT", "LIST")).split("\\R")) {
            String name = field(line, "name");
            String addr = field(line, "addr");
            if (minorityName.equals(name) && addr != null) {
                ports.add(Integer.parseInt(addr.substring(addr.lastIndexOf(':') + 1)));
            }
        }
        return ports;
    }

    private static String field(String clientListLine, String name) {
        for (String part : clientListLine.trim().split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        return null;
    }

    /**
     * The master to fail over, once the deployment is settled: every sentinel names it, it says it is a master, and
     * its replica is in sync. A failover the sentinels made on their own since the last fault (a master marked down on
     * a loaded host: down-after is 1 s) is recorded, with the setup first, or its next {@code awaitFailover} would wait
     * for a failover away from a node that is no longer the master, and as a fault ({@link #lookForUnscheduled()}).
     */
    private RedisServer settle() {
        RedisServer agreed = awaitAgreedMaster();
        if (lookForUnscheduled()) {
            return settle(); // the master it agreed on may have changed meanwhile
        }
        setup.awaitReplicasInSync();
        return agreed;
    }

    /** Waits up to 10 s (scaled) until every sentinel names the same master and that node says it is one. */
    private RedisServer awaitAgreedMaster() {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        RedisServer agreed = agreedMaster();
        while (agreed == null) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException("the sentinels of " + setup + " do not agree on a master");
            }
            FaultInjector.sleep(Duration.ofMillis(50));
            agreed = agreedMaster();
        }
        return agreed;
    }

    private RedisServer agreedMaster() {
        try {
            Set<Integer> ports = new HashSet<>();
            for (RedisServer sentinel : setup.sentinels()) {
                List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", setup.masterName());
                ports.add(Integer.parseInt(String.valueOf(address.get(1))));
            }
            if (ports.size() != 1) {
                return null;
            }
            RedisServer node = setup.nodeAdvertisedAt(ports.iterator().next());
            return "master".equals(((List<?>) node.command("ROLE")).get(0)) ? node : null;
        } catch (RuntimeException e) {
            return null; // a node or sentinel between states: look again
        }
    }

    /** Awaits the failover away from {@code old}, runs {@code healPartition} (also when there was none), rejoins {@code old}. */
    private FaultInjector.Injected failover(
            Fault fault, RedisServer old, long start, String extra, Runnable healPartition) {
        long lost = System.nanoTime();
        try {
            setup.awaitFailover(Timing.scaled(FAILOVER_TIMEOUT));
        } catch (IllegalStateException e) {
            healPartition.run();
            if (old.isPaused()) {
                old.resume();
            }
            return FaultInjector.skipped(fault, "no failover: " + FaultInjector.firstLine(e.getMessage()));
        }
        long promoted = System.nanoTime();
        healPartition.run();
        setup.rejoin(old);
        setup.awaitReplicasInSync();
        long heal = System.nanoTime();
        lastHeal = heal;
        notes.add(String.format(
                "%s: new master %.1f s after the master was lost, rejoined and in sync %.1f s later%s",
                fault.label(), (promoted - lost) / 1e9, (heal - promoted) / 1e9, extra));
        return new FaultInjector.Injected(fault, start, heal, heal, null);
    }

    @Override
    public void close() {
        try {
            setup.close();
        } finally {
            minoritySentinels.forEach(TcpProxy::close);
            fronts.values().forEach(TcpProxy::close);
        }
    }
}
