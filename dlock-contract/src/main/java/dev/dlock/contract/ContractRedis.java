package dev.dlock.contract;

import dev.dlock.spi.RedisUri.Topology;
import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import dev.dlock.testkit.TopologyExtension;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterClassTemplateInvocationCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The Redis a contract class runs against, in the topology its subclass names ({@link
 * TransportContract#topology()}): one server, a Sentinel-managed master with a replica, or a cluster
 * of three masters. A JUnit 5 extension for a {@code static} field of a contract class: a topology
 * starts (through the testkit's {@link TopologyExtension}) at the first test of the class's run on
 * it and stops after that run's last (a {@link ContractSuite} runs the class on each topology); its
 * data is flushed before each test. A standalone server is the same, or one per test method with
 * {@link #perMethod()}.
 *
 * <p>{@link #uri()} is what clients connect to; {@link #command(String...)} reads and writes behind
 * the client's back on the node that serves the key (the second argument): the current master for
 * Sentinel, the slot's master for a cluster. Keyless commands go through {@link
 * #commandOnMasters(String...)}. This class is thread-safe.
 */
public final class ContractRedis
        implements BeforeEachCallback, AfterEachCallback, AfterClassTemplateInvocationCallback, AfterAllCallback {
    private static final Set<String> KEYLESS =
            Set.of("CONFIG", "INFO", "PUBSUB", "FLUSHALL", "FLUSHDB", "DBSIZE", "SCRIPT", "CLIENT", "PING", "KEYS");

    private final boolean perMethod;
    private final RedisExtension standalone = RedisExtension.builder().build();
    private final TopologyExtension<SentinelSetup> sentinel =
            SentinelSetup.builder().replicas(1).extension();
    private final TopologyExtension<ClusterSetup> cluster =
            ClusterSetup.builder().masters(3).replicasPerMaster(0).extension();
    private Topology topology; // guarded by this
    private boolean standaloneForClass; // guarded by this

    private ContractRedis(boolean perMethod) {
        this.perMethod = perMethod;
    }

    /**
     * One server or topology per test class, flushed before each test.
     *
     * @return the extension
     */
    public static ContractRedis perClass() {
        return new ContractRedis(false);
    }

    /**
     * A fresh standalone server for each test method; a topology still starts once per class (and is
     * flushed before each test), to keep the suite's time modest.
     *
     * @return the extension
     */
    public static ContractRedis perMethod() {
        return new ContractRedis(true);
    }

    /**
     * Starts what the test's class needs, or flushes what runs.
     *
     * @param context the test's context
     */
    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        Topology wanted = ((TransportContract) context.getRequiredTestInstance()).topology();
        ExtensionContext classContext = context.getParent().orElseThrow();
        if (topology != null && topology != wanted) {
            // ContractSuite's ContractLocks keep a class's runs on two topologies apart
            throw new IllegalStateException(
                    "ContractRedis serves a run on " + topology + " and was asked for " + wanted + " at once");
        }
        topology = wanted;
        switch (wanted) {
            case STANDALONE -> {
                if (perMethod || standaloneForClass) {
                    standalone.beforeEach(context); // starts a per-method server, or flushes the class's
                } else {
                    standalone.beforeAll(classContext);
                    standaloneForClass = true;
                }
            }
            case SENTINEL -> {
                if (sentinel.isStarted()) {
                    sentinel.get().currentMaster().command("FLUSHALL");
                } else {
                    sentinel.beforeAll(classContext);
                }
            }
            case CLUSTER -> {
                if (cluster.isStarted()) {
                    commandOnMasters("FLUSHALL");
                } else {
                    cluster.beforeAll(classContext);
                }
            }
        }
    }

    /**
     * Stops a per-method server.
     *
     * @param context the test's context
     */
    @Override
    public synchronized void afterEach(ExtensionContext context) {
        if (topology == Topology.STANDALONE && perMethod) {
            standalone.afterEach(context);
        }
    }

    /**
     * Stops the server or topology of a run of the class (a {@link ContractSuite} runs the class on
     * each topology), which started it.
     *
     * @param context the run's context
     */
    @Override
    public void afterClassTemplateInvocation(ExtensionContext context) {
        afterAll(context);
    }

    /**
     * Stops the class's server or topology.
     *
     * @param context the class's context
     */
    @Override
    public synchronized void afterAll(ExtensionContext context) {
        try {
            if (standaloneForClass) {
                standalone.afterAll(context);
            }
            sentinel.afterAll(context);
            cluster.afterAll(context);
        } finally {
            standaloneForClass = false;
            topology = null;
        }
    }

    /**
     * The topology of the running class.
     *
     * @return the topology
     * @throws IllegalStateException outside a test
     */
    public synchronized Topology topology() {
        if (topology == null) {
            throw new IllegalStateException("ContractRedis is only available while tests run");
        }
        return topology;
    }

    /**
     * The URI clients connect to: {@code redis://}, {@code redis-sentinel://...#master} or {@code
     * redis-cluster://seeds}.
     *
     * @return the URI
     */
    public synchronized String uri() {
        return switch (topology()) {
            case STANDALONE -> standalone.server().uri();
            case SENTINEL -> sentinel.get().uri();
            case CLUSTER -> cluster.get().seedUri();
        };
    }

    /**
     * Runs a command that names a key as its second argument on the master that serves that key.
     *
     * @param args the command and its arguments, such as {@code "PTTL", "dlock:{a}"}
     * @return the reply
     * @throws IllegalArgumentException if the command names no key on a cluster (use {@link
     *     #commandOnMasters})
     */
    public Object command(String... args) {
        return nodeFor(args).command(args);
    }

    /**
     * Runs a command on every master (one for a standalone server or Sentinel, each for a cluster).
     *
     * @param args the command and its arguments, such as {@code "CONFIG", "RESETSTAT"}
     * @return the replies, one per master
     */
    public List<Object> commandOnMasters(String... args) {
        List<Object> replies = new ArrayList<>();
        for (RedisServer master : masters()) {
            replies.add(master.command(args));
        }
        return replies;
    }

    /**
     * Subscribers per channel: {@code PUBSUB NUMSUB} plus, on Redis 7.0+, {@code PUBSUB SHARDNUMSUB}
     * (a cluster transport may subscribe sharded), summed over every data node (a cluster's subscriber
     * may sit on any node).
     *
     * @param channels the channels
     * @return channel, count, channel, count... as {@code PUBSUB NUMSUB} answers
     */
    public List<Object> numsub(String... channels) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String channel : channels) {
            counts.put(channel, 0L);
        }
        for (RedisServer node : dataNodes()) {
            count(node, "NUMSUB", channels, counts);
            if (!node.version().startsWith("6.")) {
                count(node, "SHARDNUMSUB", channels, counts);
            }
        }
        List<Object> flat = new ArrayList<>();
        counts.forEach((channel, n) -> {
            flat.add(channel);
            flat.add(n);
        });
        return flat;
    }

    private static void count(RedisServer node, String subcommand, String[] channels, Map<String, Long> counts) {
        String[] args = new String[channels.length + 2];
        args[0] = "PUBSUB";
        args[1] = subcommand;
        System.arraycopy(channels, 0, args, 2, channels.length);
        List<?> reply = (List<?>) node.command(args);
        for (int i = 0; i < reply.size(); i += 2) {
            counts.merge(String.valueOf(reply.get(i)), (Long) reply.get(i + 1), Long::sum);
        }
    }

    /**
     * The single server, for a test that restarts or reconfigures it; on another topology the test is
     * skipped with the reason given.
     *
     * @param why why the test needs the single server, for the skip message
     * @return the server
     */
    public RedisServer standaloneServer(String why) {
        Assumptions.assumeTrue(topology() == Topology.STANDALONE, () -> "not on " + topology + ": " + why);
        return standalone.server();
    }

    /**
     * Skips the calling test on the given topology, naming the reason.
     *
     * @param skipped the topology it cannot hold on
     * @param why the reason, for the skip message
     */
    public void skipOn(Topology skipped, String why) {
        Assumptions.assumeFalse(topology() == skipped, () -> "not on " + skipped + ": " + why);
    }

    /**
     * Whether every data node runs Redis 7.0 or later.
     *
     * @return true when no node is a 6.x server
     */
    public synchronized boolean allSeven() {
        return dataNodes().stream().noneMatch(node -> node.version().startsWith("6."));
    }

    private synchronized List<RedisServer> masters() {
        return switch (topology()) {
            case STANDALONE -> List.of(standalone.server());
            case SENTINEL -> List.of(sentinel.get().currentMaster());
            case CLUSTER -> cluster.get().masters();
        };
    }

    private synchronized List<RedisServer> dataNodes() {
        return switch (topology()) {
            case STANDALONE -> List.of(standalone.server());
            case SENTINEL -> sentinel.get().dataNodes();
            case CLUSTER -> cluster.get().nodes();
        };
    }

    private synchronized RedisServer nodeFor(String[] args) {
        return switch (topology()) {
            case STANDALONE -> standalone.server();
            case SENTINEL -> sentinel.get().currentMaster();
            case CLUSTER -> {
                if (args.length < 2 || KEYLESS.contains(args[0].toUpperCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(
                            args[0] + " names no key to route by on a cluster; use commandOnMasters");
                }
                yield cluster.get().nodeForSlot(ClusterSetup.slotOf(args[1]));
            }
        };
    }
}
