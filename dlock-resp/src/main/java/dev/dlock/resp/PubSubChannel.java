package dev.dlock.resp;

import java.io.IOException;
import java.time.Duration;
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
 * under {@code writeLock} after queueing the op under {@code lock} (taken inside {@code
 * writeLock}); the connection's life cycle is {@link ReconnectingChannel}'s. The reader thread
 * matches Redis' confirmations to the queue in order (they come in command order; messages are told
 * apart by their kind) and calls the listener with no lock held. {@code desired} is the set of
 * channels the caller wants, changed at call time; after a reconnect one {@code SUBSCRIBE} per
 * channel restores all of it, and the subscribes that waited for the connection complete with the
 * restoring confirmation. Every command names one channel, so that each gets exactly one reply: a
 * refused {@code SUBSCRIBE} is answered with one error however many channels it names. A refused
 * restoring subscribe is sent again with back-off while its channel is wanted.
 */
final class PubSubChannel extends ReconnectingChannel<PubSubOp> {
    private final ReentrantLock writeLock = new ReentrantLock();
    private final CommandBuffer buffer = new CommandBuffer(); // guarded by writeLock
    private final Set<String> desired = new LinkedHashSet<>(); // guarded by writeLock
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};

    PubSubChannel(ServerDialer dialer, String clientName, Duration timeout, String maskedUri) {
        super(dialer, clientName, timeout, maskedUri, "dlock-resp-pubsub-");
    }

    void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    PubSubOp request(boolean subscribe, String channel) {
        PubSubOp op = new PubSubOp(subscribe, channel, System.nanoTime() + timeout.toNanos());
        RuntimeException failure = null;
        boolean connect = false;
        writeLock.lock();
        try {
            if (subscribe) {
                desired.add(channel);
            } else {
                desired.remove(channel);
            }
            Link<PubSubOp> l;
            lock.lock();
            try {
                l = link;
                if (closed) {
                    failure = Failures.closed(maskedUri);
                    l = null;
                } else if (l != null) {
                    l.sent.addLast(op);
                } else {
                    waiting.addLast(op);
                    connect = connectNeeded();
                }
            } finally {
                lock.unlock();
            }
            if (l != null) {
                buffer.reset();
                buffer.command(2).bulk(subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE").bulk(channel);
                write(l);
            }
        } finally {
            writeLock.unlock();
        }
        if (connect) {
            connectInBackground();
        }
        if (failure != null) {
            op.fail(failure);
        }
        return op;
    }

    private void write(Link<PubSubOp> l) {
        try {
            buffer.writeTo(l.connection.out);
        } catch (IOException e) {
            l.connection.close(); // the reader notices and requeues the op for the next connection
        }
    }

    @Override
    void install(Connection connection) {
        List<PubSubOp> confirmed = new ArrayList<>();
        writeLock.lock();
        try {
            Link<PubSubOp> l = new Link<>(connection);
            List<PubSubOp> ops;
            lock.lock();
            try {
                if (!attach(l)) {
                    return;
                }
                ops = new ArrayList<>(waiting);
                waiting.clear();
            } finally {
                lock.unlock();
            }
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
                // One SUBSCRIBE per channel: a refused one (NOPERM) is answered with one error for the whole
                // command, not one per channel, so only one channel per command keeps the replies aligned.
                long deadline = System.nanoTime() + timeout.toNanos();
                List<PubSubOp> restoring = new ArrayList<>();
                for (Map.Entry<String, List<PubSubOp>> e : carried.entrySet()) {
                    long due = deadline;
                    for (PubSubOp op : e.getValue()) {
                        due = op.deadline - due < 0 ? op.deadline : due;
                    }
                    PubSubOp restore = PubSubOp.restore(e.getKey(), due, 1);
                    e.getValue().forEach(restore::carry);
                    restoring.add(restore);
                }
                // Soonest due first: the timer stops at the first op on the link still in time (Timeouts), so a
                // restore due with the subscribe it carries must not wait behind one due a whole timeout later.
                restoring.sort((a, b) -> Long.signum(a.deadline - b.deadline));
                buffer.reset();
                for (PubSubOp restore : restoring) {
                    buffer.command(2).bulk("SUBSCRIBE").bulk(restore.channel);
                }
                lock.lock();
                try {
                    l.sent.addAll(restoring);
                } finally {
                    lock.unlock();
                }
                write(l);
            }
            startReader(l); // after the restoring ops are queued: they are the first to be answered
        } finally {
            writeLock.unlock();
        }
        confirmed.forEach(PubSubOp::confirm);
    }

    @Override
    void onReply(Link<PubSubOp> l, Object reply) {
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
                if (op.restoreAttempt > 0) {
                    startDaemon("resubscribe", () -> resubscribe(l, op.channel, op.restoreAttempt + 1));
                }
            }
        }
    }

    /**
     * Subscribes again, after a back-off, to a channel whose restoring subscribe Redis refused (such as NOPERM while
     * an ACL denies SUBSCRIBE), if it is still wanted and {@code l} still the live link (a new link restores every
     * wanted channel itself). Its waiters were subscribed before the connection was lost and wait on; without this the
     * channel would stay unsubscribed in Redis with nobody told, and their wake-ups lost until it is unsubscribed.
     */
    private void resubscribe(Link<PubSubOp> l, String channel, int attempt) {
        Daemons.backOff(attempt - 1);
        writeLock.lock();
        try {
            if (!desired.contains(channel)) {
                return;
            }
            lock.lock();
            try {
                if (closed || link != l) {
                    return;
                }
                l.sent.addLast(PubSubOp.restore(channel, System.nanoTime() + timeout.toNanos(), attempt));
            } finally {
                lock.unlock();
            }
            buffer.reset();
            buffer.command(2).bulk("SUBSCRIBE").bulk(channel);
            write(l);
        } finally {
            writeLock.unlock();
        }
    }

    private void deliver(String channel, String message) {
        try {
            listener.accept(channel, message);
        } catch (RuntimeException e) {
            // the listener's own failure must not cost every other waiter its wake-ups
        }
    }

    private PubSubOp poll(Link<PubSubOp> l) {
        lock.lock();
        try {
            return l.sent.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    /** Subscribes in flight are tried again on the next connection; unsubscribes are done (the link is gone). */
    @Override
    List<PubSubOp> onLost(List<PubSubOp> sent, boolean wasLive, Throwable cause) {
        List<PubSubOp> done = new ArrayList<>();
        List<PubSubOp> retry = new ArrayList<>();
        for (PubSubOp op : sent) {
            (op.subscribe ? retry : done).add(op);
        }
        for (int i = retry.size() - 1; i >= 0; i--) {
            waiting.addFirst(retry.get(i));
        }
        lastConnectFailure = Failures.lost(maskedUri, cause);
        return done;
    }

    @Override
    void settleLost(List<PubSubOp> done, Throwable cause) {
        done.forEach(PubSubOp::confirm);
    }
}
