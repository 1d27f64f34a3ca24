package dev.dlock.internal;

import dev.dlock.spi.Transport;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Multiplexes every waiter of one client onto one pub/sub connection. Protocol: a waiter joins the
 * channel of its lock (the first joiner subscribes, and Redis confirms before anyone tries again),
 * then tries; a release publishes on the channel only when the lock hash says someone waits, and a
 * message wakes exactly one waiter of this client, the longest-waiting one. A waiter that was woken
 * but leaves without trying passes the wake-up on, so none is lost.
 */
final class WaitRoom {
    private final Transport transport;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();

    WaitRoom(Transport transport) {
        this.transport = transport;
        transport.onMessage((channel, message) -> {
            Channel c = channels.get(channel);
            if (c != null) {
                c.wakeOne();
            }
        });
    }

    /** Joins the channel; the returned waiter's {@code subscribed} completes once Redis confirmed. */
    Waiter join(String channel) {
        Waiter waiter = new Waiter();
        channels.compute(channel, (name, c) -> {
            Channel joined = c == null ? new Channel(name, transport.subscribe(name)) : c;
            joined.members++;
            joined.queue.add(waiter);
            waiter.channel = joined;
            return joined;
        });
        return waiter;
    }

    /** True if some waiter of this client other than {@code self} waits on the channel. */
    boolean othersWaiting(String channel, Waiter self) {
        Channel c = channels.get(channel);
        if (c == null) {
            return false;
        }
        for (Waiter w : c.queue) {
            if (w != self) {
                return true;
            }
        }
        return false;
    }

    void leave(Waiter waiter) {
        Channel c = waiter.channel;
        boolean wasWoken = waiter.wasWoken();
        c.queue.remove(waiter);
        channels.computeIfPresent(c.name, (name, current) -> {
            if (current != c) {
                return current;
            }
            if (--current.members == 0) {
                transport.unsubscribe(name);
                return null;
            }
            return current;
        });
        if (wasWoken) {
            c.wakeOne();
        }
    }

    int channelCount() {
        return channels.size();
    }

    static final class Channel {
        final String name;
        final CompletableFuture<Void> subscribed;
        final ConcurrentLinkedQueue<Waiter> queue = new ConcurrentLinkedQueue<>();
        int members; // guarded by the map's compute

        Channel(String name, CompletableFuture<Void> subscribed) {
            this.name = name;
            this.subscribed = subscribed;
        }

        void wakeOne() {
            for (Waiter w : queue) {
                if (w.wake()) {
                    return;
                }
            }
        }
    }

    /** One waiting acquire. Its signal, renewed by {@link #arm()}, completes when it should try again. */
    static final class Waiter {
        private volatile Channel channel;
        // Completes with TRUE for a wake-up by a release, FALSE for the waiter's own timer or cancel.
        private volatile CompletableFuture<Boolean> signal = new CompletableFuture<>();

        CompletableFuture<Void> subscribed() {
            return channel.subscribed;
        }

        /**
         * Returns a fresh signal; call it before sending each try, so that a release that happens
         * while the try is in flight still wakes this waiter.
         */
        CompletableFuture<Boolean> arm() {
            signal = new CompletableFuture<>();
            return signal;
        }

        /** True if the release's wake-up reached this waiter and no try has consumed it since. */
        boolean wasWoken() {
            CompletableFuture<Boolean> s = signal;
            return s.isDone() && Boolean.TRUE.equals(s.getNow(Boolean.FALSE));
        }

        /** Returns the signal armed before the last try. */
        CompletableFuture<Boolean> signalForWait() {
            return signal;
        }

        /** Wakes this waiter unless it already was; false lets the caller wake another. */
        boolean wake() {
            return signal.complete(Boolean.TRUE);
        }

        /** Wakes this waiter for its own reasons (timeout, cancellation), not passing anything on. */
        void nudge() {
            signal.complete(Boolean.FALSE);
        }
    }
}
