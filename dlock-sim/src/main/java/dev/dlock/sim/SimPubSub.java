package dev.dlock.sim;

import dev.dlock.LockConnectionException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * A {@link SimTransport}'s pub/sub connection, kept as dlock-resp's {@code PubSubChannel} keeps its own: the channels
 * wanted change when a subscribe or unsubscribe is called; each op is confirmed by the server's answer. When the
 * connection is lost, the server drops its subscriptions and what it was publishing to it; a subscribe in flight or
 * issued while down waits for the next connection, on which every channel wanted then is subscribed again (one
 * {@code SUBSCRIBE} each, whose answer confirms the subscribes that waited for it); an unsubscribe in flight or issued
 * while down is done with the connection. Reconnecting is {@link ReconnectingLink}'s.
 *
 * <p>Thread-safe as its transport is: state under this object's lock, the network never called while it is held.
 */
final class SimPubSub implements ReconnectingLink.Owner {
    private final SimRedis server;
    private final SimNetwork network;
    private final boolean sharded;
    private final EventLoop loop; // null: no time
    private final ReconnectingLink link;
    private final Set<String> desired = new LinkedHashSet<>(); // the channels wanted, as of the calls; guarded by this
    private final Set<Op> sent = new LinkedHashSet<>(); // guarded by this
    private final ArrayDeque<Op> waiting = new ArrayDeque<>(); // guarded by this
    private ServerSide side = new ServerSide(); // the connection's end at the server; guarded by this
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};

    /** A subscribe or unsubscribe, and the subscribes that waited for a new connection and complete with it. */
    private static final class Op {
        final boolean subscribe;
        final String channel;
        final CompletableFuture<Void> future = new CompletableFuture<>();
        final long issued;
        List<Op> carried;

        Op(boolean subscribe, String channel, long issued) {
            this.subscribe = subscribe;
            this.channel = channel;
            this.issued = issued;
        }

        void confirm() {
            future.complete(null);
            if (carried != null) {
                carried.forEach(Op::confirm);
            }
        }

        void fail(Throwable failure) {
            future.completeExceptionally(failure);
            if (carried != null) {
                carried.forEach(op -> op.fail(failure));
            }
        }
    }

    /** One connection as the server sees it: opened by its first request, gone with the connection. */
    private final class ServerSide {
        boolean open = true;
        PubSubConnection connection;

        PubSubConnection connection() {
            if (connection == null) {
                connection = server.connectPubSub(
                        (channel, message) -> network.message(() -> listener.accept(channel, message)));
            }
            return connection;
        }

        void close() {
            open = false;
            if (connection != null) {
                connection.close();
            }
        }
    }

    SimPubSub(SimRedis server, SimNetwork network, boolean sharded, EventLoop loop, String uri, boolean lettuce) {
        this.server = server;
        this.network = network;
        this.sharded = sharded;
        this.loop = loop;
        this.link = new ReconnectingLink(SimNetwork.Link.PUBSUB, network, loop, uri, lettuce);
        link.owner(this);
    }

    void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    /** Subscribes to or unsubscribes from a channel; the future completes when the server confirmed. */
    CompletableFuture<Void> request(boolean subscribe, String channel) {
        Op op = new Op(subscribe, channel, loop == null ? 0 : loop.now());
        boolean up = link.isUp();
        ServerSide at;
        synchronized (this) {
            if (subscribe) {
                desired.add(channel);
            } else {
                desired.remove(channel);
            }
            (up ? sent : waiting).add(op);
            at = side;
        }
        if (up) {
            send(op, at);
        } else {
            link.needed();
        }
        return op.future;
    }

    private void send(Op op, ServerSide at) {
        network.toServer(SimNetwork.Link.PUBSUB, () -> {
            synchronized (this) {
                if (!at.open) {
                    return; // its connection is gone, and whatever it did there with it
                }
                PubSubConnection c = at.connection();
                if (op.subscribe) {
                    c.subscribe(op.channel, sharded);
                } else {
                    c.unsubscribe(op.channel, sharded);
                }
            }
            network.toClient(SimNetwork.Link.PUBSUB, () -> {
                synchronized (this) {
                    sent.remove(op);
                }
                op.confirm();
            });
        });
    }

    /** The connection is gone (dropped, or closed by a restart): the server drops its subscriptions; reconnect. */
    void lost() {
        if (!link.isUp()) {
            return;
        }
        List<Op> done = new ArrayList<>();
        ServerSide gone;
        synchronized (this) {
            gone = side;
            side = new ServerSide();
            List<Op> retry = new ArrayList<>();
            for (Op op : sent) {
                (op.subscribe ? retry : done).add(op); // subscribes go again; unsubscribes went with it
            }
            sent.clear();
            for (int i = retry.size() - 1; i >= 0; i--) {
                waiting.addFirst(retry.get(i));
            }
        }
        gone.close();
        link.lost();
        done.forEach(Op::confirm);
    }

    /**
     * Connected again: one {@code SUBSCRIBE} per wanted channel, which also confirms the subscribes that waited for
     * it; what else waited (unsubscribes, channels no longer wanted) is done.
     */
    @Override
    public void connected() {
        Map<String, Op> restores = new LinkedHashMap<>();
        List<Op> done = new ArrayList<>();
        ServerSide at;
        synchronized (this) {
            for (String channel : desired) {
                restores.put(channel, new Op(true, channel, loop == null ? 0 : loop.now()));
            }
            for (Op op : waiting) {
                Op restore = op.subscribe ? restores.get(op.channel) : null;
                if (restore != null) {
                    if (restore.carried == null) {
                        restore.carried = new ArrayList<>();
                    }
                    restore.carried.add(op);
                } else if (!op.future.isDone()) {
                    done.add(op);
                }
            }
            waiting.clear();
            sent.addAll(restores.values());
            at = side;
        }
        for (Op restore : restores.values()) {
            send(restore, at);
        }
        done.forEach(Op::confirm);
    }

    @Override
    public void failWaiting(long issuedBy, LockConnectionException failure) {
        List<Op> failed = new ArrayList<>();
        synchronized (this) {
            for (Op op = waiting.peekFirst(); op != null && op.issued <= issuedBy; op = waiting.peekFirst()) {
                failed.add(waiting.pollFirst());
            }
        }
        failed.forEach(op -> op.fail(failure));
    }

    /** Closes the connection; what is pending fails with {@code failure}. */
    void close(LockConnectionException failure) {
        link.close();
        List<Op> failed;
        synchronized (this) {
            side.close();
            failed = new ArrayList<>(waiting);
            failed.addAll(sent);
            waiting.clear();
            sent.clear();
            desired.clear();
        }
        failed.forEach(op -> op.fail(failure));
    }
}
