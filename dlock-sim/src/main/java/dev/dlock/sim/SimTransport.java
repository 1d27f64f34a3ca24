package dev.dlock.sim;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * dlock's {@link Transport} over one {@link SimRedis}, every command, reply and message passing through a {@link
 * SimNetwork}. A script runs as the real transports run it ({@link SimCommands}): with its source ({@code EVAL}) on
 * its first use, by SHA-1 ({@code EVALSHA}) after that, and after a {@code NOSCRIPT} reply with its source again, in
 * the order issued or not at all. Replies are shaped as dlock-resp shapes them:
 * {@code Long} for an integer, {@code String} for a bulk or status string, {@code List} for an array (an error inside
 * one as a {@link RedisReplyException} element), {@code null} for nil; an error reply fails the future with a
 * {@link RedisReplyException} carrying Redis's words.
 *
 * <p>Subscriptions go over one pub/sub connection ({@code SSUBSCRIBE} when built {@code sharded}).
 *
 * <p>Connections: a client has a command connection and a pub/sub connection, each of which can be lost on its own,
 * when the network drops it ({@link SimNetwork#onDrop}) or the server restarts (a restart closes every client
 * connection). The transport then does what dlock-resp does ({@link ReconnectingLink}): the commands sent on the lost
 * connection and not yet answered fail at once with a {@link LockConnectionException} (they may have run: outcome
 * unknown); commands issued while it is down wait, and go out on the next connection in the order issued, unless
 * they timed out meanwhile (never sent then) or the reconnect keeps being refused past a second (they fail, never
 * sent). On the pub/sub side, a subscribe in flight or issued while down is confirmed once the new connection has
 * subscribed its channel again, an unsubscribe is done with the connection, and every channel wanted at the time is
 * subscribed again, one {@code SUBSCRIBE} each; what was published meanwhile is lost. The client core is told nothing
 * of it: the SPI has no such callback (its waiters re-check on their own timers, as they must for an expiry, which
 * publishes nothing). Built with {@link Reconnects#LETTUCE}, the commands in flight on a lost connection go out again
 * on the next one instead, as Lettuce's at-least-once auto-reconnect sends them.
 *
 * <p>Replica acknowledgements ({@link #evalReplicated}, with a world to time them): the script and its {@code WAIT}
 * go as one pair on one connection, against the server's {@link SimReplica} (none: the count is 0); the server holds
 * the connection until the {@code WAIT} answers ({@link CommandServer}). A pair whose connection is lost before its
 * answer fails with a {@link LockConnectionException}: at once as dlock-resp, or (as Lettuce) when the pair sent again
 * on the next connection answers, its script run a second time.
 *
 * <p>Thread-safe in so far as its network is, while no connection is lost: with {@link SimNetwork#direct()}, calls
 * are serialized by that network's lock; losses and reconnects happen on the simulation's one thread.
 */
public final class SimTransport implements Transport {
    private static final String URI = "sim://redis";

    private final SimRedis server;
    private final SimNetwork network;
    private final boolean sharded;
    private final EventLoop loop; // for command timeouts; null: none
    private final long timeoutNanos;
    private final Reconnects reconnects;
    private final SimCommands commands;
    private final SimPubSub pubSub;
    private volatile boolean closed;

    /** What a lost command connection does to the commands in flight on it: which real transport it mirrors. */
    public enum Reconnects {
        /**
         * dlock-resp: they fail at once with a {@link LockConnectionException}; commands issued while down wait, and
         * fail unsent once reconnecting has been refused past a second.
         */
        RESP,
        /**
         * Lettuce (auto-reconnect, at-least-once): they go out again on the next connection, ahead of those issued
         * while down, unless they timed out meanwhile; so one that ran may run twice. Reconnect attempts after 1, 2, 4
         * ms... up to 30 s; commands wait for the connection up to their timeout.
         */
        LETTUCE
    }

    /**
     * Told of every script as it runs on the server, and of every script reply that reaches the client in time (its
     * future not yet done), just before; and asked, as each script is sent, whether the connection drops right after
     * it.
     */
    interface Tap {
        /**
         * A script ran on the server (whether or not its reply will reach the client).
         *
         * @param script the script
         * @param keys its keys
         * @param reply what it answered (an error reply as a {@link RedisReplyException})
         */
        default void ran(Script script, String[] keys, Object reply) {}

        /**
         * @param script the script
         * @param keys its keys
         * @param args its arguments
         * @param issued when the client issued the command (world time)
         * @param wipes the server's {@link SimRedis#wipes()} when the script ran
         * @param reply what it answered
         */
        void answered(Script script, String[] keys, String[] args, long issued, long wipes, Object reply);

        /**
         * Whether the command connection drops right after {@code script} was sent on it: it never runs, nor does
         * anything else in flight on the connection.
         */
        default boolean cutAfter(Script script) {
            return false;
        }
    }

    /** Sets the one {@link Tap}. */
    void tap(Tap tap) {
        commands.tap(tap);
    }

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
        this(server, network, sharded, loop, commandTimeout, Reconnects.RESP);
    }

    /**
     * Creates a transport with command timeouts, as the other constructor does, whose lost connections are handled as
     * {@code reconnects} says.
     *
     * @param server the server
     * @param network the network between this client and the server
     * @param sharded whether subscriptions use sharded pub/sub ({@link #shardedPubSub()})
     * @param loop the world whose time the timeouts and reconnects run on
     * @param commandTimeout how long an answer may take
     * @param reconnects which real transport's handling of a lost connection it mirrors
     * @throws IllegalArgumentException if {@code commandTimeout} is not positive
     */
    public SimTransport(
            SimRedis server,
            SimNetwork network,
            boolean sharded,
            EventLoop loop,
            Duration commandTimeout,
            Reconnects reconnects) {
        this.reconnects = Objects.requireNonNull(reconnects, "reconnects");
        this.server = Objects.requireNonNull(server, "server");
        this.network = Objects.requireNonNull(network, "network");
        this.sharded = sharded;
        this.loop = loop;
        this.timeoutNanos = commandTimeout.toNanos();
        if (loop != null && timeoutNanos <= 0) {
            throw new IllegalArgumentException("commandTimeout must be positive, was " + commandTimeout);
        }
        boolean lettuce = reconnects == Reconnects.LETTUCE;
        this.commands = new SimCommands(server, network, loop, timeoutNanos, URI, lettuce);
        this.pubSub = new SimPubSub(server, network, sharded, loop, URI, lettuce);
        network.onDrop(link -> lost(link, "connection reset"));
        server.addRestartListener(() -> {
            network.close(SimNetwork.Link.COMMANDS);
            network.close(SimNetwork.Link.PUBSUB);
            lost(SimNetwork.Link.COMMANDS, "the server closed the connection");
            lost(SimNetwork.Link.PUBSUB, "the server closed the connection");
        });
    }

    /**
     * Creates a transport over a {@link SimNetwork#direct() direct} network with classic pub/sub.
     *
     * @param server the server
     */
    public SimTransport(SimRedis server) {
        this(server, SimNetwork.direct(), false);
    }

    /** Fails {@code future} if it is still pending after the command timeout. */
    private <T> CompletableFuture<T> timed(CompletableFuture<T> future) {
        return timed(future, timeoutNanos);
    }

    /** Fails {@code future} if it is still pending after {@code nanos}. */
    private <T> CompletableFuture<T> timed(CompletableFuture<T> future, long nanos) {
        if (loop != null && !future.isDone()) {
            EventLoop.Event timeout = loop.after(
                    nanos,
                    () -> future.completeExceptionally(new LockConnectionException(
                            URI, "Redis did not answer in time (" + Duration.ofNanos(nanos) + ")", null)));
            future.whenComplete((v, e) -> timeout.cancel());
        }
        return future;
    }

    private long now() {
        return loop == null ? 0 : loop.now();
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        if (refuseClosed(future)) {
            return future;
        }
        return timed(commands.eval(script, keys, args, now(), future));
    }

    /** True with a world to time the {@code WAIT}s in (built with an {@link EventLoop}). */
    @Override
    public boolean waitsForReplicas() {
        return loop != null;
    }

    /**
     * Runs a script and its {@code WAIT} as one pair on one connection; the pair may take the command timeout plus the
     * {@code WAIT}'s, as dlock-resp's does.
     *
     * @throws UnsupportedOperationException without a world ({@link #waitsForReplicas()} false)
     */
    @Override
    public CompletableFuture<Replicated> evalReplicated(Script script, String[] keys, String[] args, ReplicaAck ack) {
        if (loop == null) {
            throw new UnsupportedOperationException("a SimTransport without an EventLoop cannot wait for replicas");
        }
        CompletableFuture<Object> future = new CompletableFuture<>();
        if (!refuseClosed(future)) {
            timed(
                    commands.eval(script, keys, args, now(), future, ack),
                    timeoutNanos + ack.timeout().toNanos());
        }
        return future.thenApply(Replicated.class::cast);
    }

    /** A connection is gone (dropped, or closed by a restart): sort out what was on it, and reconnect. */
    private void lost(SimNetwork.Link link, String why) {
        if (closed) {
            return;
        }
        if (link == SimNetwork.Link.PUBSUB) {
            pubSub.lost();
        } else {
            commands.lost(why);
        }
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return request(true, channel);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return request(false, channel);
    }

    private CompletableFuture<Void> request(boolean subscribe, String channel) {
        CompletableFuture<Void> refused = new CompletableFuture<>();
        if (refuseClosed(refused)) {
            return refused;
        }
        return timed(pubSub.request(subscribe, channel));
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        pubSub.onMessage(Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public boolean shardedPubSub() {
        return sharded;
    }

    /** Closes both connections; whatever is pending on them fails with a {@link LockConnectionException}. */
    @Override
    public void close() {
        closed = true;
        LockConnectionException failure = new LockConnectionException(URI, "the transport is closed", null);
        commands.close(failure);
        pubSub.close(failure);
    }

    private boolean refuseClosed(CompletableFuture<?> future) {
        if (closed) {
            future.completeExceptionally(new LockConnectionException(URI, "the transport is closed", null));
        }
        return closed;
    }
}
