package dev.dlock.resp;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * The pub/sub connection, opened in the background on the first subscribe.
 *
 * <p>Concurrency: as in {@link CommandChannel}, callers write {@code SUBSCRIBE}/{@code UNSUBSCRIBE}
 * under {@code writeLock} after queueing the op under {@code queueLock}; the reader thread matches
 * Redis' confirmations to the queue in order (they come in command order; messages are told apart
 * by their kind) and calls the listener with no lock held. {@code desired} is the set of channels
 * the caller wants, changed at call time; after a reconnect one {@code SUBSCRIBE} restores all of
 * it, and the subscribes that waited for the connection complete with the restoring confirmation.
 */
final class PubSubChannel {
    private final RedisEndpoint endpoint;
    private final String clientName;
    private final Duration timeout;
    private final String maskedUri;

    private final ReentrantLock writeLock = new ReentrantLock();
    private final ReentrantLock queueLock = new ReentrantLock();
    private final CommandBuffer buffer = new CommandBuffer(); // guarded by writeLock
    private final Set<String> desired = new LinkedHashSet<>(); // guarded by writeLock
    private final ArrayDeque<PubSubOp> waiting = new ArrayDeque<>(); // guarded by queueLock
    private volatile Link link; // written under writeLock and queueLock
    private boolean connecting; // guarded by queueLock
    private volatile RuntimeException lastConnectFailure;
    private volatile boolean closed;
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};

    private static final class Link {
        final Connection connection;
        final ArrayDeque<PubSubOp> sent = new ArrayDeque<>(); // guarded by queueLock
        boolean alive = true; // guarded by queueLock

        Link(Connection connection) {
            this.connection = connection;
        }
    }

    PubSubChannel(RedisEndpoint endpoint, String clientName, Duration timeout, String maskedUri) {
        this.endpoint = endpoint;
        this.clientName = clientName;
        this.timeout = timeout;
        this.maskedUri = maskedUri;
    }

    void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    PubSubOp request(boolean subscribe, String channel) {
        PubSubOp op = new PubSubOp(subscribe, channel, System.nanoTime() + timeout.toNanos());
        RuntimeException failure = null;
        boolean start = false;
        writeLock.lock();
        try {
            if (subscribe) {
                desired.add(channel);
            } else {
                desired.remove(channel);
            }
            Link l = link;
            queueLock.lock();
            try {
                if (closed) {
                    failure = Failures.closed(maskedUri);
                    l = null;
                } else if (l != null && l.alive) {
                    l.sent.addLast(op);
                } else {
                    l = null;
                    waiting.addLast(op);
                    start = !connecting;
                    connecting = true;
                }
            } finally {
                queueLock.unlock();
            }
            if (l != null) {
                buffer.reset();
                buffer.command(2).bulk(subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE").bulk(channel);
                write(l);
            }
        } finally {
            writeLock.unlock();
        }
        if (start) {
            Daemons.start("dlock-resp-pubsub-connect-" + clientName, this::reconnect);
        }
        if (failure != null) {
            op.fail(failure);
        }
        return op;
    }

    private void write(Link l) {
        try {
            buffer.writeTo(l.connection.out);
        } catch (IOException e) {
            l.connection.close(); // the reader notices and requeues the op for the next connection
        }
    }

    private void reconnect() {
        Connection c = Connection.openRetrying(
                endpoint, clientName, timeout, maskedUri, () -> closed, e -> lastConnectFailure = e);
        if (c != null) {
            install(c);
        }
    }

    private void install(Connection connection) {
        List<PubSubOp> confirmed = new ArrayList<>();
        writeLock.lock();
        try {
            Link l = new Link(connection);
            List<PubSubOp> ops;
            queueLock.lock();
            try {
                if (closed) {
                    connection.close();
                    return;
                }
                ops = new ArrayList<>(waiting);
                waiting.clear();
                connecting = false;
                link = l;
            } finally {
                queueLock.unlock();
            }
            lastConnectFailure = null;
            Map<String, List<PubSubOp>> carried = new LinkedHashMap<>();
            for (String channel : desired) {
                carried.put(channel, new ArrayList<>());
            }
            for (PubSubOp op : ops) {
                List<PubSubOp> carriers = op.subscribe ? carried.get(op.channel) : null;
                if (carriers != null) {
                    carriers.add(op);
                } else if (!op.isDone()) {
                    confirmed.add(op); // an unsubscribe, or a channel unsubscribed since: nothing to do on a new link
                }
            }
            if (!carried.isEmpty()) {
                long deadline = System.nanoTime() + timeout.toNanos();
                List<PubSubOp> restoring = new ArrayList<>();
                buffer.reset();
                buffer.command(1 + carried.size()).bulk("SUBSCRIBE");
                for (Map.Entry<String, List<PubSubOp>> e : carried.entrySet()) {
                    long due = deadline;
                    for (PubSubOp op : e.getValue()) {
                        due = op.deadline - due < 0 ? op.deadline : due;
                    }
                    PubSubOp restore = new PubSubOp(true, e.getKey(), due);
                    e.getValue().forEach(restore::carry);
                    restoring.add(restore);
                    buffer.bulk(e.getKey());
                }
                queueLock.lock();
                try {
                    l.sent.addAll(restoring);
                } finally {
                    queueLock.unlock();
                }
                write(l);
            }
            Daemons.start("dlock-resp-pubsub-reader-" + clientName, () -> read(l));
        } finally {
            writeLock.unlock();
        }
        confirmed.forEach(PubSubOp::confirm);
    }

    private void read(Link l) {
        try {
            while (true) {
                Object reply = l.connection.reader.read();
                if (reply instanceof List<?> parts && parts.size() >= 3 && parts.get(0) instanceof String kind) {
                    if (kind.equals("message")) {
                        deliver((String) parts.get(1), (String) parts.get(2));
                    } else if (kind.equals("subscribe") || kind.equals("unsubscribe")) {
                        PubSubOp op = poll(l);
                        if (op != null) {
                            op.confirm();
                        }
                    }
                } else if (reply instanceof ErrorReply error) {
                    PubSubOp op = poll(l);
                    if (op != null) {
                        op.fail(Failures.reply(maskedUri, error.message()));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            lost(l, e);
        }
    }

    private void deliver(String channel, String message) {
        try {
            listener.accept(channel, message);
        } catch (RuntimeException e) {
            // the listener's own failure must not cost every other waiter its wake-ups
        }
    }

    private PubSubOp poll(Link l) {
        queueLock.lock();
        try {
            return l.sent.pollFirst();
        } finally {
            queueLock.unlock();
        }
    }

    /** Subscribes in flight are tried again on the next connection; unsubscribes are done (the link is gone). */
    private void lost(Link l, Throwable cause) {
        List<PubSubOp> done = new ArrayList<>();
        boolean start;
        queueLock.lock();
        try {
            l.alive = false;
            List<PubSubOp> retry = new ArrayList<>();
            for (PubSubOp op : l.sent) {
                (op.subscribe ? retry : done).add(op);
            }
            l.sent.clear();
            for (int i = retry.size() - 1; i >= 0; i--) {
                waiting.addFirst(retry.get(i));
            }
            if (link == l) {
                link = null;
            }
            lastConnectFailure = Failures.lost(maskedUri, cause);
            start = !closed && !connecting;
            connecting |= start;
        } finally {
            queueLock.unlock();
        }
        l.connection.close();
        done.forEach(PubSubOp::confirm);
        if (start) {
            Daemons.start("dlock-resp-pubsub-connect-" + clientName, this::reconnect);
        }
    }

    void collectOverdue(long now, List<Pending<?>> overdue) {
        queueLock.lock();
        try {
            Link l = link;
            if (l != null) {
                Timeouts.collect(l.sent, now, overdue);
            }
            Timeouts.remove(waiting, now, overdue);
        } finally {
            queueLock.unlock();
        }
    }

    RuntimeException notConnectedReason() {
        return link == null ? lastConnectFailure : null;
    }

    void close() {
        List<PubSubOp> failed;
        Link l;
        queueLock.lock();
        try {
            closed = true;
            l = link;
            failed = new ArrayList<>(waiting);
            waiting.clear();
            if (l != null) {
                l.alive = false;
                failed.addAll(l.sent);
                l.sent.clear();
            }
        } finally {
            queueLock.unlock();
        }
        if (l != null) {
            l.connection.close();
        }
        RuntimeException failure = Failures.closed(maskedUri);
        failed.forEach(op -> op.fail(failure));
    }
}
