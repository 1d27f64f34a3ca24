package dev.dlock.lettuce;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.TransportConfig;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ConnectionIntent;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One Lettuce cluster client of a Redis Cluster ({@code redis-cluster://seed1,seed2}). Scripts are
 * routed by their first key's slot (dlock's keys of one lock share the hash tag {@code {name}}) and
 * keep their order across {@code NOSCRIPT} through a {@link ScriptQueue}; Lettuce follows {@code
 * MOVED} and {@code ASK} and refreshes the topology on them, on persistent reconnects and
 * periodically, so resharding and failovers are followed.
 *
 * <p>Replicated calls go straight to the connection of the slot's master (the one Lettuce routes the
 * slot's commands on), script and {@code WAIT} pipelined, counted only if both were written once to
 * the same channel ({@link ScriptCommands#sendReplicated}); a {@code MOVED} reply there is resent once to
 * the node it names, {@code ASK} or {@code TRYAGAIN} (the slot is moving) fail the call (see {@link
 * #send}). Pub/sub is sharded ({@link ShardedPubSub}) when every node runs Redis 7.0+ ({@link
 * PubSubChoice}), else classic {@code SUBSCRIBE}/{@code PUBLISH}, which a cluster broadcasts to every
 * node and Lettuce moves to another node when its node fails. This class is thread-safe.
 */
final class LettuceClusterTransport extends LettuceBase {
    /** How often the topology is reloaded without a trigger. */
    static final Duration PERIODIC_REFRESH = Duration.ofSeconds(10);

    private static final System.Logger LOG = System.getLogger("dev.dlock.lettuce");

    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, String> connection;
    private final boolean sharded;

    private LettuceClusterTransport(
            ClientResources resources,
            RedisClusterClient client,
            TransportConfig config,
            StatefulRedisClusterConnection<String, String> connection,
            boolean sharded) {
        super(
                resources,
                client,
                connection,
                config,
                sharded
                        ? new ShardedPubSub(config.maskedUri(), client, resources)
                        : new SharedPubSub(config.maskedUri(), () -> client.connectPubSubAsync(StringCodec.UTF8)));
        this.client = client;
        this.connection = connection;
        this.sharded = sharded;
    }

    static LettuceClusterTransport connect(TransportConfig config) {
        List<RedisURI> seeds = LettuceClients.seedUris(config);
        ClientResources resources = LettuceClients.resources();
        RedisClusterClient client = RedisClusterClient.create(resources, seeds);
        client.setOptions(LettuceClients.configure(ClusterClientOptions.builder(), config.commandTimeout())
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .adaptiveRefreshTriggersTimeout(Duration.ofMillis(500))
                        .refreshTriggersReconnectAttempts(2)
                        .enablePeriodicRefresh(PERIODIC_REFRESH)
                        .build())
                .build());
        try {
            StatefulRedisClusterConnection<String, String> connection = client.connect(StringCodec.UTF8);
            PubSubChoice choice = PubSubChoice.probe(connection, config.commandTimeout());
            LOG.log(
                    System.Logger.Level.INFO,
                    "dlock uses {0} pub/sub on {1}: {2}",
                    choice.sharded() ? "sharded (SSUBSCRIBE/SPUBLISH)" : "classic (SUBSCRIBE/PUBLISH)",
                    config.maskedUri(),
                    choice.reason());
            LettuceClusterTransport transport =
                    new LettuceClusterTransport(resources, client, config, connection, choice.sharded());
            connection.sync().ping();
            return transport;
        } catch (RuntimeException e) {
            shutdown(client, resources);
            throw Errors.connectFailure(config.maskedUri(), e);
        }
    }

    @Override
    public boolean shardedPubSub() {
        return sharded;
    }

    @Override
    public int slot(String key) {
        return SlotHash.getSlot(key);
    }

    /**
     * The id of the master that serves the key's slot in this client's view of the topology, when
     * every node runs Redis 7.0+ (the same check that chooses sharded pub/sub: a 6.2 node would refuse
     * a script's {@code #!lua flags=} line); else null.
     */
    @Override
    public String crossSlotNode(String key) {
        if (!sharded) {
            return null;
        }
        RedisClusterNode master = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        return master == null ? null : master.getNodeId();
    }

    @Override
    public CompletableFuture<Replicated> evalReplicated(Script script, String[] keys, String[] args, ReplicaAck ack) {
        if (keys.length == 0) {
            throw new IllegalArgumentException("a replicated script needs a key to find its node: " + script.name());
        }
        return super.evalReplicated(script, keys, args, ack);
    }

    /** The master that serves the call's first key now, whose script cache it uses; null if keyless. */
    @Override
    String scriptScope(ScriptQueue.Call call) {
        if (call.keys.length == 0) {
            return null;
        }
        RedisClusterNode master = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(call.keys[0]));
        return master == null ? null : master.getNodeId();
    }

    /**
     * Routed by slot, or for a replicated call, straight to the slot's master. A replicated call
     * answered {@code MOVED} (the slot has a new owner this client did not know of yet) is sent once
     * more, to the node the reply names: a redirect is answered before the script runs, so it did not
     * run and resending cannot run it twice. An {@code ASK} or {@code TRYAGAIN} (the slot is being
     * migrated; also answered before the script runs), or a second redirect, fails the call with a
     * {@link LockConnectionException}.
     */
    @Override
    CompletionStage<Object> send(ScriptQueue.Call call, boolean asSource) {
        if (call.ack == null) {
            return ScriptCommands.send(connection, ScriptCommands.script(call, asSource, timeoutNanos));
        }
        int slot = SlotHash.getSlot(call.keys[0]);
        RedisClusterNode master = connection.getPartitions().getMasterBySlot(slot);
        if (master == null) {
            client.refreshPartitionsAsync();
            return CompletableFuture.failedFuture(
                    new LockConnectionException(maskedUri, "no master serves slot " + slot + " now", null));
        }
        return sendReplicated(master.getUri().getHost(), master.getUri().getPort(), call, asSource)
                .exceptionallyCompose(error -> {
                    if (!isRedirect(error)) {
                        return CompletableFuture.failedFuture(error);
                    }
                    client.refreshPartitionsAsync();
                    String[] moved = movedTarget(error);
                    if (moved == null) {
                        return CompletableFuture.failedFuture(moving(slot, error));
                    }
                    return sendReplicated(moved[0], Integer.parseInt(moved[1]), call, asSource)
                            .exceptionallyCompose(again ->
                                    CompletableFuture.failedFuture(isRedirect(again) ? moving(slot, again) : again));
                });
    }

    /** The script and its WAIT on the node connection of {@code host:port}. */
    private CompletionStage<Object> sendReplicated(String host, int port, ScriptQueue.Call call, boolean asSource) {
        Tracked<Object> script = ScriptCommands.script(call, asSource, timeoutNanos);
        CompletableFuture<StatefulRedisConnection<String, String>> nodeConnection =
                connection.getConnectionAsync(host, port, ConnectionIntent.WRITE);
        // Already open (the usual case, as the slot's commands use it): sent now, in order.
        return nodeConnection.isDone() && !nodeConnection.isCompletedExceptionally()
                ? ScriptCommands.sendReplicated(nodeConnection.join(), call, script, timeoutNanos, maskedUri)
                : nodeConnection.thenCompose(
                        c -> ScriptCommands.sendReplicated(c, call, script, timeoutNanos, maskedUri));
    }

    private LockConnectionException moving(int slot, Throwable error) {
        return new LockConnectionException(
                maskedUri,
                "slot " + slot + " is moving (" + Errors.unwrap(error).getMessage() + "); the script did not run",
                null);
    }

    /**
     * A reply a node sends instead of running a command on a slot it does not (fully) serve: {@code
     * MOVED}, {@code ASK}, or {@code TRYAGAIN} (a migrating slot holds some of the keys).
     */
    private static boolean isRedirect(Throwable error) {
        String message = String.valueOf(Errors.unwrap(error).getMessage());
        return message.startsWith("MOVED") || message.startsWith("ASK") || message.startsWith("TRYAGAIN");
    }

    /** Host and port of a {@code MOVED <slot> <host>:<port>} reply; null for any other error. */
    static String[] movedTarget(Throwable error) {
        String[] parts = String.valueOf(Errors.unwrap(error).getMessage()).split(" ");
        if (parts.length != 3 || !parts[0].equals("MOVED")) {
            return null;
        }
        int colon = parts[2].lastIndexOf(':');
        return colon <= 0 ? null : new String[] {parts[2].substring(0, colon), parts[2].substring(colon + 1)};
    }

    @Override
    public int masterCount() {
        return Math.max(1, masters().size());
    }

    @Override
    public CompletableFuture<Object> evalOnMaster(int master, Script script, String[] args) {
        List<RedisClusterNode> masters = masters();
        if (master < 0 || master >= masters.size()) {
            return CompletableFuture.failedFuture(
                    new IndexOutOfBoundsException("master " + master + " of " + masters.size()));
        }
        return onNode(masters.get(master), script, args);
    }

    /** The masters that serve slots, by node id: a stable order for {@link #evalOnMaster}. */
    private List<RedisClusterNode> masters() {
        List<RedisClusterNode> masters = new ArrayList<>();
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
                masters.add(node);
            }
        }
        masters.sort(java.util.Comparator.comparing(RedisClusterNode::getNodeId));
        return masters;
    }

    /** A keyless script on one node: by SHA-1, and as source after NOSCRIPT (it only reads, so order is moot). */
    private CompletableFuture<Object> onNode(RedisClusterNode node, Script script, String[] args) {
        String[] noKeys = new String[0];
        return connection
                .getConnectionAsync(node.getUri().getHost(), node.getUri().getPort(), ConnectionIntent.WRITE)
                .thenCompose(c -> ScriptCommands.send(
                                c, ScriptCommands.script(script, noKeys, args, false, timeoutNanos))
                        .exceptionallyCompose(error -> Errors.isNoScript(error)
                                ? ScriptCommands.send(
                                        c, ScriptCommands.script(script, noKeys, args, true, timeoutNanos))
                                : CompletableFuture.failedFuture(error)))
                .exceptionally(error -> {
                    throw Errors.translate(maskedUri, error);
                })
                .toCompletableFuture();
    }
}
