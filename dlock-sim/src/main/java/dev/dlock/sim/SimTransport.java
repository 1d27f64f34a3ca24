package dev.dlock.sim;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
 * on the next one instead, as Lettuce's at-least-once auto-reconnect sends them. Not yet simulated: a command sent
 * after one that met {@code NOSCRIPT} running before that one's resend
 * (dlock-resp fails such an overtaken command instead), and {@code WAIT} ({@link #waitsForReplicas()} is false).
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
    private final ReconnectingLink commandLink;
    private final SimPubSub pubSub;
    private final Set<Call> sent = new LinkedHashSet<>(); // on the command connection, unanswered; guarded by this
    private final ArrayDeque<Call> waiting = new ArrayDeque<>(); // for a command connection; guarded by this
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

    /** A script call: sent, answered, or lost with its connection. */
    private record Call(Script script, String[] keys, String[] args, long issued, CompletableFuture<Object> future) {}

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

    private Tap tap;

    /** Sets the one {@link Tap}. */
    void tap(Tap tap) {
        this.tap = tap;
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
        this.commandLink = new ReconnectingLink(SimNetwork.Link.COMMANDS, network, loop, URI, lettuce);
        this.pubSub = new SimPubSub(server, network, sharded, loop, URI, lettuce);
        commandLink.owner(new ReconnectingLink.Owner() {
            @Override
            public void connected() {
                sendWaiting();
            }

            @Override
            public void failWaiting(long issuedBy, LockConnectionException failure) {
                failWaitingCalls(issuedBy, failure);
            }
        });
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
        if (loop != null && !future.isDone()) {
            EventLoop.Event timeout = loop.after(
                    timeoutNanos,
                    () -> future.completeExceptionally(new LockConnectionException(
                            URI, "Redis did not answer in time (" + Duration.ofNanos(timeoutNanos) + ")", null)));
            future.whenComplete((v, e) -> timeout.cancel());
        }
        return future;
    }

    private long now() {
        return loop == null ? 0 : loop.now();
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        Call call = new Call(script, keys, args, now(), new CompletableFuture<>());
        if (refuseClosed(call.future)) {
            return call.future;
        }
        boolean up = commandLink.isUp();
        synchronized (this) {
            (up ? sent : waiting).add(call);
        }
        call.future.whenComplete((v, e) -> forget(call));
        if (up) {
            send(call, false);
            if (tap != null && loop != null && tap.cutAfter(script)) {
                loop.after(
                        0,
                        () -> { // before it arrives (no delay is shorter than 50 µs), not within this call
                            network.close(SimNetwork.Link.COMMANDS);
                            lost(SimNetwork.Link.COMMANDS, "connection reset");
                        });
            }
        } else {
            commandLink.needed();
        }
        return timed(call.future);
    }

    private synchronized void forget(Call call) {
        sent.remove(call);
    }

    private void send(Call call, boolean asSource) {
        network.toServer(SimNetwork.Link.COMMANDS, () -> {
            Object reply;
            long wipes = server.wipes();
            try {
                reply = asSource
                        ? server.eval(call.script.source(), call.keys, call.args)
                        : server.evalsha(call.script.sha1(), call.keys, call.args);
            } catch (RedisReplyException e) {
                reply = e;
            }
            if (tap != null) {
                tap.ran(call.script, call.keys, reply);
            }
            Object answer = reply;
            network.toClient(SimNetwork.Link.COMMANDS, () -> {
                if (answer instanceof RedisReplyException e) {
                    // as dlock-resp: a command that timed out is never resent, its caller may have compensated
                    if (!asSource && e.getMessage().startsWith("NOSCRIPT") && !closed && !call.future.isDone()) {
                        send(call, true);
                    } else {
                        call.future.completeExceptionally(e);
                    }
                } else {
                    if (tap != null && !call.future.isDone()) {
                        tap.answered(call.script, call.keys, call.args, call.issued, wipes, answer);
                    }
                    call.future.complete(shaped(answer));
                }
            });
        });
    }

    /** The command connection is back: what waited goes out in the order issued, less what timed out meanwhile. */
    private void sendWaiting() {
        List<Call> out = new ArrayList<>();
        synchronized (this) {
            for (Call call : waiting) {
                if (!call.future.isDone()) {
                    out.add(call);
                    sent.add(call);
                }
            }
            waiting.clear();
        }
        for (Call call : out) {
            send(call, false);
        }
    }

    private void failWaitingCalls(long issuedBy, LockConnectionException failure) {
        List<Call> failed = new ArrayList<>();
        synchronized (this) {
            for (Call call = waiting.peekFirst(); call != null && call.issued <= issuedBy; call = waiting.peekFirst()) {
                failed.add(waiting.pollFirst());
            }
        }
        failed.forEach(call -> call.future.completeExceptionally(failure));
    }

    /** A connection is gone (dropped, or closed by a restart): sort out what was on it, and reconnect. */
    private void lost(SimNetwork.Link link, String why) {
        if (closed) {
            return;
        }
        if (link == SimNetwork.Link.PUBSUB) {
            pubSub.lost();
            return;
        }
        if (!commandLink.isUp()) {
            return;
        }
        List<Call> failed;
        synchronized (this) {
            failed = new ArrayList<>(sent);
            sent.clear();
            if (reconnects == Reconnects.LETTUCE) {
                for (int i = failed.size() - 1; i >= 0; i--) {
                    waiting.addFirst(failed.get(i)); // at least once: again, ahead of what was issued since
                }
                failed.clear();
            }
        }
        commandLink.lost();
        LockConnectionException failure =
                new LockConnectionException(URI, "lost the connection to Redis: " + why, null);
        failed.forEach(call -> call.future.completeExceptionally(failure));
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
        commandLink.close();
        List<Call> calls;
        synchronized (this) {
            calls = new ArrayList<>(waiting);
            calls.addAll(sent);
            waiting.clear();
            sent.clear();
        }
        LockConnectionException failure = new LockConnectionException(URI, "the transport is closed", null);
        calls.forEach(call -> call.future.completeExceptionally(failure));
        pubSub.close(failure);
    }

    private boolean refuseClosed(CompletableFuture<?> future) {
        if (closed) {
            future.completeExceptionally(new LockConnectionException(URI, "the transport is closed", null));
        }
        return closed;
    }
}
