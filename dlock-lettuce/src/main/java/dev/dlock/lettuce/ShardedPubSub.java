package dev.dlock.lettuce;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.resource.ClientResources;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import reactor.core.Disposable;

/**
 * Sharded pub/sub ({@code SSUBSCRIBE}, Redis 7.0+) on a cluster: one {@code SSUBSCRIBE} per channel,
 * which Lettuce's cluster pub/sub connection routes by the channel's slot to its node connection to
 * the slot's master. dlock's channels carry the lock's hash tag, so a lock's messages ({@code
 * SPUBLISH} in its scripts) stay on the shard that holds the lock instead of crossing the cluster bus
 * to every node.
 *
 * <p>Keeping subscriptions: a sharded subscription lives on one node, and Lettuce restores it only
 * when that very node connection reconnects. So this class keeps the channels the core wants and
 * renews one (a fresh {@code SSUBSCRIBE}, routed by the current topology; a redundant one is
 * harmless) when
 *
 * <ul>
 *   <li>its node drops it: Redis sends {@code sunsubscribe} when the channel's slot moves away
 *       (resharding, or a master demoted by a failover); the topology is refreshed first;
 *   <li>the topology changes and the slot's master is no longer the node that confirmed it (a
 *       failover of a killed or paused master, whose node connection cannot reconnect);
 *   <li>its node connection reconnects: Lettuce then resubscribes every shard channel of that node
 *       in one {@code SSUBSCRIBE}, which Redis refuses ({@code CROSSSLOT}) when they span slots.
 * </ul>
 *
 * A renewal that fails is retried with a back-off (50 ms doubling to 1 s) while the channel is
 * wanted. Messages published while a subscription is being renewed are lost; the core's waiters do
 * not depend on them (each waiter's periodic try, at most every 1.7 s, finds a lock handed to it).
 * Each channel's commands are sent one after the other, so an {@code SUNSUBSCRIBE} and a later
 * {@code SSUBSCRIBE} cannot swap places while a node connection is still being opened. This class is
 * thread-safe.
 */
final class ShardedPubSub implements PubSub {
    private static final System.Logger LOG = System.getLogger("dev.dlock.lettuce");
    private static final long FIRST_RETRY_MILLIS = 50;
    private static final long MAX_RETRY_MILLIS = 1_000;

    private final String maskedUri;
    private final RedisClusterClient client;
    private final ClientResources resources;
    private final CompletableFuture<StatefulRedisClusterPubSubConnection<String, String>> connection =
            new CompletableFuture<>();
    private final AtomicBoolean opening = new AtomicBoolean();
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    private final Disposable events;
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};
    private volatile boolean closed;

    ShardedPubSub(String maskedUri, RedisClusterClient client, ClientResources resources) {
        this.maskedUri = maskedUri;
        this.client = client;
        this.resources = resources;
        this.events = resources.eventBus().get().subscribe(event -> {
            if (event instanceof ClusterTopologyChangedEvent) {
                renewWhereTheOwnerChanged();
            } else if (event instanceof ConnectionActivatedEvent activated
                    && activated.remoteAddress() instanceof InetSocketAddress address) {
                renewOn(address);
            }
        });
    }

    /** One wanted (or being unsubscribed) channel. */
    private static final class Channel {
        final String name;
        final int slot;
        CompletableFuture<Void> tail = CompletableFuture.completedFuture(null); // guarded by the map's compute
        boolean wanted; // guarded by the map's compute
        boolean renewing; // a renewal is queued on tail; guarded by the map's compute
        int failures; // renewals failed in a row; guarded by the map's compute
        volatile int unsubscribing; // our SUNSUBSCRIBEs queued or unanswered; written under the map's compute
        volatile String node; // host:port that confirmed the subscription; null if unknown or dropped

        Channel(String name) {
            this.name = name;
            this.slot = SlotHash.getSlot(name);
        }
    }

    private CompletableFuture<StatefulRedisClusterPubSubConnection<String, String>> connection() {
        if (opening.compareAndSet(false, true)) {
            // Not on the calling thread, which may be a Netty event loop (see SharedPubSub).
            CompletableFuture.supplyAsync(() -> client.connectPubSubAsync(StringCodec.UTF8))
                    .thenCompose(f -> f)
                    .whenComplete((c, error) -> {
                        if (error != null) {
                            opening.set(false);
                            connection.completeExceptionally(Errors.translate(maskedUri, error));
                            return;
                        }
                        c.addListener(new Listener());
                        connection.complete(c);
                    });
        }
        return connection;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        CompletableFuture<Void>[] sent = new CompletableFuture[1];
        channels.compute(channel, (name, c) -> {
            Channel ch = c == null ? new Channel(name) : c;
            ch.wanted = true;
            ch.tail = ch.tail.handle((ok, error) -> null).thenCompose(ignored -> ssubscribe(ch));
            sent[0] = ch.tail;
            return ch;
        });
        // Callbacks outside the map's compute: a command that fails at once would run them inside it.
        return sent[0].exceptionally(error -> {
            throw Errors.translate(maskedUri, error);
        });
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        Channel[] unwanted = new Channel[1];
        @SuppressWarnings({"unchecked", "rawtypes"})
        CompletableFuture<Void>[] sent = new CompletableFuture[1];
        channels.computeIfPresent(channel, (name, c) -> {
            c.wanted = false;
            c.unsubscribing++;
            c.tail = c.tail.handle((ok, error) -> null)
                    .thenCompose(ignored -> connection()
                            .thenCompose(p -> p.async().sunsubscribe(name).toCompletableFuture()));
            unwanted[0] = c;
            sent[0] = c.tail;
            return c;
        });
        if (unwanted[0] == null) {
            return CompletableFuture.completedFuture(null);
        }
        return sent[0].whenComplete((ok, error) -> forgetIfUnwanted(unwanted[0]))
                .exceptionally(error -> {
                    throw Errors.translate(maskedUri, error);
                });
    }

    /**
     * Opens the node connection of the slot's master first (the one Lettuce routes the slot's {@code
     * SSUBSCRIBE} on), so that the command's timeout, which runs from its dispatch, does not include
     * the connect: a first subscription on a node would otherwise time out on a loaded host.
     */
    private CompletableFuture<Void> ssubscribe(Channel ch) {
        return connection().thenCompose(p -> {
            RedisClusterNode master = p.getPartitions().getMasterBySlot(ch.slot);
            CompletableFuture<?> open = master == null
                    ? CompletableFuture.completedFuture(null)
                    : p.getConnectionAsync(
                            master.getUri().getHost(), master.getUri().getPort());
            // A failed open is the SSUBSCRIBE's to report (or to route around, after a MOVED)
            return open.handle((c, error) -> null)
                    .thenCompose(ignored -> p.async().ssubscribe(ch.name).toCompletableFuture());
        });
    }

    private void forgetIfUnwanted(Channel c) {
        channels.computeIfPresent(c.name, (name, current) -> {
            if (current != c) {
                return current;
            }
            c.unsubscribing = Math.max(0, c.unsubscribing - 1);
            return !c.wanted && c.tail.isDone() ? null : current;
        });
    }

    /**
     * Queues a fresh {@code SSUBSCRIBE} of a wanted channel unless one is queued already; retries a
     * failed one with a back-off while the channel is wanted.
     */
    private void renew(String channel, String why) {
        Channel[] renewing = new Channel[1];
        @SuppressWarnings({"unchecked", "rawtypes"})
        CompletableFuture<Void>[] sent = new CompletableFuture[1];
        channels.computeIfPresent(channel, (name, ch) -> {
            if (!ch.wanted || ch.renewing || closed) {
                return ch;
            }
            ch.renewing = true;
            ch.tail = ch.tail.handle((ok, error) -> null).thenCompose(ignored -> ssubscribe(ch));
            renewing[0] = ch;
            sent[0] = ch.tail;
            return ch;
        });
        if (renewing[0] != null) {
            sent[0].whenComplete((ok, error) -> renewed(renewing[0], why, error));
        }
    }

    private void renewed(Channel ch, String why, Throwable error) {
        long[] retryIn = {0};
        int[] failures = {0};
        channels.computeIfPresent(ch.name, (name, current) -> {
            if (current != ch) {
                return current;
            }
            ch.renewing = false;
            if (error == null) {
                failures[0] = ch.failures;
                ch.failures = 0;
            } else if (ch.wanted && !closed) {
                failures[0] = ++ch.failures;
                retryIn[0] = Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(failures[0] - 1, 5));
            }
            return current;
        });
        if (error == null) {
            LOG.log(
                    failures[0] > 0 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                    "dlock renewed the sharded subscription of {0} on {1} ({2}) after {3} failed attempts",
                    ch.name,
                    ch.node,
                    why,
                    failures[0]);
        } else if (retryIn[0] > 0) {
            if (failures[0] == 1) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock could not renew the sharded subscription of " + ch.name + " (" + why + ") on "
                                + maskedUri + "; retrying until it succeeds (waiters meanwhile rely on their"
                                + " periodic tries): " + Errors.unwrap(error));
            }
            try {
                resources.eventExecutorGroup().schedule(() -> renew(ch.name, why), retryIn[0], TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                // the client is closing: nothing to renew for
            }
        }
    }

    /** After a topology change: every channel whose slot's master is not the node that confirmed it. */
    private void renewWhereTheOwnerChanged() {
        for (Channel ch : channels.values()) {
            String owner = ownerOf(ch.slot);
            if (ch.node == null || !ch.node.equals(owner)) {
                renew(ch.name, "the master of slot " + ch.slot + " is now " + owner);
            }
        }
    }

    /** After a connection to {@code address} (re)connected: the channels that node had confirmed. */
    private void renewOn(InetSocketAddress address) {
        String node = address.getHostString() + ":" + address.getPort();
        for (Channel ch : channels.values()) {
            if (node.equals(ch.node)) {
                renew(ch.name, "the connection to " + node + " reconnected");
            }
        }
    }

    private String ownerOf(int slot) {
        RedisClusterNode master = client.getPartitions().getMasterBySlot(slot);
        return master == null ? null : hostPort(master);
    }

    private static String hostPort(RedisClusterNode node) {
        RedisURI uri = node.getUri();
        return uri == null ? null : uri.getHost() + ":" + uri.getPort();
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public void close() {
        closed = true;
        events.dispose();
        connection.thenAccept(StatefulRedisClusterPubSubConnection::close);
    }

    /** Messages to the core; confirmations and drops to the channels' state. */
    private final class Listener extends RedisClusterPubSubAdapter<String, String> {
        @Override
        public void smessage(RedisClusterNode node, String channel, String message) {
            listener.accept(channel, message);
        }

        @Override
        public void ssubscribed(RedisClusterNode node, String channel, long count) {
            Channel ch = channels.get(channel);
            if (ch != null) {
                ch.node = node == null ? null : hostPort(node);
            }
        }

        @Override
        public void sunsubscribed(RedisClusterNode node, String channel, long count) {
            Channel ch = channels.get(channel);
            if (ch == null) {
                return;
            }
            ch.node = null;
            if (ch.wanted && ch.unsubscribing == 0 && !closed) {
                // Not ours (ours is counted until answered): the node dropped it, as when the slot moved.
                String from = node == null ? "its node" : hostPort(node);
                LOG.log(
                        System.Logger.Level.INFO,
                        "dlock''s sharded subscription of {0} was dropped by {1} (its slot {2} moved); renewing it",
                        channel,
                        from,
                        ch.slot);
                client.refreshPartitionsAsync().whenComplete((ok, error) -> renew(channel, "dropped by " + from));
            }
        }
    }
}
