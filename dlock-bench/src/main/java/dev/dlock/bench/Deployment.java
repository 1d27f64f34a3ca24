package dev.dlock.bench;

import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.IndependentMasters;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import java.time.Duration;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The servers of one topology, started by the testkit on free loopback ports (never 6379) and stopped by pid: where a
 * phase's peers connect ({@link #target()}) and which servers take the writes ({@link #masters()}, whose commands and
 * CPU the phase counts). Sentinel and Cluster run with long failure timeouts, so that a stall of the shared host
 * during a phase cannot start a failover.
 */
final class Deployment implements AutoCloseable {
    private static final Duration NO_FAILOVER = Duration.ofSeconds(60);

    private final Target target;
    private final List<RedisServer> masters;
    private final AutoCloseable owner;
    private final IntUnaryOperator masterOfSlot;

    private Deployment(Target target, List<RedisServer> masters, AutoCloseable owner, IntUnaryOperator masterOfSlot) {
        this.target = target;
        this.masters = List.copyOf(masters);
        this.owner = owner;
        this.masterOfSlot = masterOfSlot;
    }

    /** The main suite's one server, which the caller owns (closing this deployment leaves it running). */
    static Deployment standalone(RedisServer server) {
        return new Deployment(Target.standalone(server.host(), server.port()), List.of(server), () -> {}, null);
    }

    /**
     * Starts the servers of {@code topology}.
     *
     * @param topology not {@link Topology#STANDALONE}
     * @return the running deployment
     */
    static Deployment start(Topology topology) {
        return switch (topology) {
            case STANDALONE -> throw new IllegalArgumentException("the standalone server is the suite's own");
            case SENTINEL -> sentinel();
            case CLUSTER -> cluster();
            case REDLOCK_3, REDLOCK_5 -> independent(topology);
        };
    }

    private static Deployment sentinel() {
        SentinelSetup setup = SentinelSetup.builder()
                .replicas(1)
                .downAfter(NO_FAILOVER)
                .failoverTimeout(NO_FAILOVER.multipliedBy(2))
                .start();
        List<String> sentinels =
                setup.sentinels().stream().map(s -> s.host() + ":" + s.port()).toList();
        return new Deployment(
                new Target(Topology.SENTINEL, sentinels, setup.masterName()),
                List.of(setup.initialMaster()),
                setup,
                null);
    }

    private static Deployment cluster() {
        ClusterSetup setup =
                ClusterSetup.builder().masters(3).nodeTimeout(NO_FAILOVER).start();
        List<RedisServer> masters = setup.masters();
        List<String> nodes =
                masters.stream().map(s -> s.host() + ":" + s.port()).toList();
        return new Deployment(
                new Target(Topology.CLUSTER, nodes, ""),
                masters,
                setup,
                slot -> masters.indexOf(setup.nodeForSlot(slot)));
    }

    private static Deployment independent(Topology topology) {
        IndependentMasters setup =
                IndependentMasters.builder().masters(topology.masters()).start();
        List<String> nodes =
                setup.servers().stream().map(s -> s.host() + ":" + s.port()).toList();
        return new Deployment(new Target(topology, nodes, ""), setup.servers(), setup, null);
    }

    Target target() {
        return target;
    }

    /** The servers that take the lock writes: the master(s), or every node of a Redlock. */
    List<RedisServer> masters() {
        return masters;
    }

    /**
     * The lock name of worker {@code index} for a workload whose workers each take their own key: {@code base-index},
     * or on a cluster the first {@code base-index-n} whose slot the {@code index % masters}-th master owns, so that
     * the workers' names spread evenly over the masters (dlock and Redisson both put a lock's keys in its name's slot).
     */
    String ownKey(String base, int index) {
        return masterOfSlot == null
                ? base + "-" + index
                : SpreadNames.name(base + "-" + index, index % masters.size(), masterOfSlot);
    }

    /** Deletes every key on every master (replicas follow), between phases. */
    void flushAll() {
        masters.forEach(m -> m.command("FLUSHALL"));
    }

    @Override
    public void close() throws Exception {
        owner.close();
    }
}
