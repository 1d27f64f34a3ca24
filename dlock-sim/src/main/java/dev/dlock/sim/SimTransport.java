package dev.dlock.sim;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * dlock's {@link Transport} over one {@link SimRedis}, every command, reply and message passing through a {@link
 * SimNetwork}. A script runs as the real transports run it: {@code EVALSHA}, and after a {@code NOSCRIPT} reply the
 * source again ({@code EVAL}, which loads it), as a second round trip. Replies are shaped as dlock-resp shapes them:
 * {@code Long} for an integer, {@code String} for a bulk or status string, {@code List} for an array (an error inside
 * one as a {@link RedisReplyException} element), {@code null} for nil; an error reply fails the future with a
 * {@link RedisReplyException} carrying Redis's words.
 *
 * <p>Subscriptions go over one pub/sub connection ({@code SSUBSCRIBE} when built {@code sharded}); after a server
 * restart drops it, the transport opens another and subscribes its channels again, as the real transports restore
 * theirs after a reconnect. Not yet simulated: a command sent after one that met {@code NOSCRIPT} may run before that
 * one's resend (dlock-resp fails such an overtaken command instead), and {@code WAIT} ({@link #waitsForReplicas()} is
 * false).
 *
 * <p>Thread-safe in so far as its network is: with {@link SimNetwork#direct()}, calls are serialized by that
 * network's lock.
 */
public final class SimTransport implements Transport {
    private static final String URI = "sim://redis";

    private final SimRedis server;
    private final SimNetwork network;
    private final boolean sharded;
    private final EventLoop loop; // for command timeouts; null: none
    private final long timeoutNanos;
    private final Set<String> subscribed = new LinkedHashSet<>(); // guarded by this
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};
    private PubSubConnection pubSub; // guarded by this
    private volatile boolean closed;

    /**
     * Creates a transport.
     *
     * @param server the server
     * @param network the network between this client and the server
     * @param sharded whether subscriptions use sharded pub/sub ({@link #shardedPubSub()})
     */
    public SimTransport(SimRedis server, SimNetwork network, boolean sharded) {
        this(server, network, sharded, null, Duration.ZERO);
    }

    /**
     * Creates a transport whose commands, subscriptions and unsubscriptions fail with a {@link
     * LockConnectionException} when their answer has not arrived {@code commandTimeout} after they were sent, as the
     * real transports' do: the command may have run (its reply lost or late), so its outcome is unknown.
     *
     * @param server the server
     * @param network the network between this client and the server
     * @param sharded whether subscriptions use sharded pub/sub ({@link #shardedPubSub()})
     * @param loop the world whose time the timeouts run on
     * @param commandTimeout how long an answer may take
     * @throws IllegalArgumentException if {@code commandTimeout} is not positive
     */
    public SimTransport(SimRedis server, SimNetwork network, boolean sharded, EventLoop loop, Duration commandTimeout) {
        this.server = Objects.requireNonNull(server, "server");
        this.network = Objects.requireNonNull(network, "network");
        this.sharded = sharded;
        this.loop = loop;
        this.timeoutNanos = commandTimeout.toNanos();
        if (loop != null && timeoutNanos <= 0) {
            throw new IllegalArgumentException("commandTimeout must be positive, was " + commandTimeout);
        }
        server.addRestartListener(this::reconnectPubSub);
    }

    /** Fails {@code future} if it is still pending after the command timeout. */
    private <T> CompletableFuture<T> timed(CompletableFuture<T> future) {
        if (loop != null && !future.isDone()) {
            EventLoop.Event timeout = loop.after(
                    timeoutNanos,
                    () -> future.completeExceptionally(new LockConnectionException(
                            URI, "Redis did not answer in time (" + Duration.ofNanos(timeoutNanos) + ")", null)));
            future.whenComplete((v, e) -> timeout.cancel());
        }
        return future;
    }

    /**
     * Creates a transport over a {@link SimNetwork#direct() direct} network with classic pub/sub.
     *
     * @param server the server
     */
    public SimTransport(SimRedis server) {
        this(server, SimNetwork.direct(), false);
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        if (refuseClosed(future)) {
            return future;
        }
        send(script, keys, args, false, future);
        return timed(future);
    }

    private void send(Script script, String[] keys, String[] args, boolean asSource, CompletableFuture<Object> f) {
        network.toServer(SimNetwork.Link.COMMANDS, () -> {
            Object reply;
            try {
                reply = asSource ? server.eval(script.source(), keys, args) : server.evalsha(script.sha1(), keys, args);
            } catch (RedisReplyException e) {
                reply = e;
            }
            Object answer = reply;
            network.toClient(SimNetwork.Link.COMMANDS, () -> {
                if (answer instanceof RedisReplyException e) {
                    if (!asSource && e.getMessage().startsWith("NOSCRIPT") && !closed) {
                        send(script, keys, args, true, f);
                    } else {
                        f.completeExceptionally(e);
                    }
                } else {
                    f.complete(shaped(answer));
                }
            });
        });
    }

    /** Status strings as plain strings, at any depth, as a RESP2 client decodes them. */
    private static Object shaped(Object reply) {
        if (reply instanceof StatusReply s) {
            return s.text();
        }
        if (reply instanceof java.util.List<?> list) {
            java.util.List<Object> out = new java.util.ArrayList<>(list.size());
            for (Object o : list) {
                out.add(shaped(o));
            }
            return out;
        }
        return reply;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        if (refuseClosed(future)) {
            return future;
        }
        network.toServer(SimNetwork.Link.PUBSUB, () -> {
            synchronized (this) {
                subscribed.add(channel);
                connection().subscribe(channel, sharded);
            }
            network.toClient(SimNetwork.Link.PUBSUB, () -> future.complete(null));
        });
        return timed(future);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        CompletableFuture<Void> future = new CompletableFuture<>();
        if (refuseClosed(future)) {
            return future;
        }
        network.toServer(SimNetwork.Link.PUBSUB, () -> {
            synchronized (this) {
                subscribed.remove(channel);
                connection().unsubscribe(channel, sharded);
            }
            network.toClient(SimNetwork.Link.PUBSUB, () -> future.complete(null));
        });
        return timed(future);
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    public boolean shardedPubSub() {
        return sharded;
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            if (pubSub != null) {
                pubSub.close();
            }
            subscribed.clear();
        }
    }

    /** The open pub/sub connection, opened on first use. */
    private PubSubConnection connection() {
        if (pubSub == null || !pubSub.isOpen()) {
            pubSub = server.connectPubSub(
                    (channel, message) -> network.message(() -> listener.accept(channel, message)));
        }
        return pubSub;
    }

    private void reconnectPubSub() {
        if (closed) {
            return;
        }
        network.toServer(SimNetwork.Link.PUBSUB, () -> {
            synchronized (this) {
                if (closed || subscribed.isEmpty()) {
                    return;
                }
                PubSubConnection c = connection();
                for (String channel : subscribed) {
                    c.subscribe(channel, sharded);
                }
            }
        });
    }

    private boolean refuseClosed(CompletableFuture<?> future) {
        if (closed) {
            future.completeExceptionally(new LockConnectionException(URI, "the transport is closed", null));
        }
        return closed;
    }
}
