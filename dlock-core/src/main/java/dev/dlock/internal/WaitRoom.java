package dev.dlock.internal;

import dev.dlock.spi.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Multiplexes every waiter of one client onto one pub/sub connection, with one subscription per
 * lock name however many of the client's threads wait for it. Protocol: a waiter joins the channel
 * of its lock (the first joiner subscribes, and Redis confirms before the waiter queues itself in
 * Redis), then queues with a try. A release hands the lock to the oldest queued waiter of any
 * client and publishes {@code g <token> <owner>} on that owner's client's own channel, where it
 * completes that one waiter. Any other message (a forced release, or a release that could not
 * hand off) wakes the longest-waiting waiter of each client to try for itself; a woken waiter that
 * leaves without trying passes the wake-up on. A channel stays subscribed for a short linger
 * after its last waiter left, so that a client that contends again queues on its very first try
 * instead of subscribing anew. One idle check per channel is pending at a time, not one per
 * waiter that left: a busy lock would otherwise put a task on the timer for every acquisition.
 */
final class WaitRoom {
    static final long LINGER_MILLIS = 5_000;
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS);

    private final Transport transport;
    private final ScheduledExecutorService scheduler;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Waiter> byOwner = new ConcurrentHashMap<>();

    WaitRoom(Transport transport, ScheduledExecutorService scheduler, Ticker ticker) {
        this.transport = transport;
        this.scheduler = scheduler;
        this.ticker = ticker;
        transport.onMessage(this::onMessage);
    }

    private void onMessage(String channel, String message) {
        if (message.startsWith("g ")) {
            int space = message.indexOf(' ', 2);
            if (space > 2) {
                Waiter w = byOwner.get(message.substring(space + 1));
                if (w != null) {
                    w.grant(Long.parseLong(message, 2, space, 10));
                }
            }
            return; // a hand-off to a waiter of another client, or to one that has left
        }
        Channel c = channels.get(channel);
        if (c != null) {
            c.wakeOne();
        }
    }

    /** Joins the channel; the returned waiter's {@code subscribed} completes once Redis confirmed. */
    Waiter join(String channel, String owner, Acquisition acquisition) {
        Waiter waiter = new Waiter(owner, acquisition);
        // subscribe() only queues the command, so calling it under the map's lock keeps the order
        // of a channel's UNSUBSCRIBE and a later SUBSCRIBE without blocking anyone
        Channel joined = channels.compute(channel, (name, c) -> {
            Channel j = c == null ? new Channel(name, transport.subscribe(name)) : c;
            j.members++;
            return j;
        });
        return enter(joined, waiter);
    }

    /** Makes a waiter that is counted as a member of {@code c} reachable by messages. */
    private Waiter enter(Channel c, Waiter waiter) {
        byOwner.put(waiter.owner, waiter);
        c.queue.add(waiter);
        waiter.channel = c;
        return waiter;
    }

    /**
     * Joins the channel only if this client is already subscribed to it and Redis has confirmed
     * that; returns null otherwise, changing nothing.
     */
    Waiter joinIfSubscribed(String channel, String owner, Acquisition acquisition) {
        Channel c = channels.get(channel);
        if (c == null || !c.subscribed.isDone() || c.subscribed.isCompletedExceptionally()) {
            return null;
        }
        Waiter waiter = new Waiter(owner, acquisition);
        boolean[] joined = {false};
        channels.computeIfPresent(channel, (name, current) -> {
            if (current == c) {
                current.members++;
                joined[0] = true;
            }
            return current;
        });
        if (!joined[0]) {
            return null; // unsubscribed meanwhile
        }
        return enter(c, waiter);
    }

    void leave(Waiter waiter) {
        Channel c = waiter.channel;
        boolean wasWoken = waiter.wasWoken();
        byOwner.remove(waiter.owner, waiter);
        c.queue.remove(waiter);
        boolean[] schedule = {false};
        channels.computeIfPresent(c.name, (name, current) -> {
            if (current == c && --current.members == 0) {
                current.idleSince = ticker.nanos();
                schedule[0] = !current.checkPending;
                current.checkPending = true;
            }
            return current;
        });
        if (schedule[0]) {
            scheduleIdleCheck(c, LINGER_NANOS);
        }
        if (wasWoken) {
            c.wakeOne();
        }
    }

    private void scheduleIdleCheck(Channel c, long delayNanos) {
        try {
            scheduler.schedule(() -> checkIdle(c), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            unsubscribeIfIdle(c); // the client is closing
        }
    }

    /**
     * Unsubscribes a channel that has had no member for the whole linger; checks again when it went
     * idle later than that, and stops checking while it has members (the next leave schedules anew).
     */
    private void checkIdle(Channel c) {
        long[] again = {0};
        channels.computeIfPresent(c.name, (name, current) -> {
            if (current != c) {
                return current;
            }
            if (current.members > 0) {
                current.checkPending = false;
                return current;
            }
            long idle = ticker.nanos() - current.idleSince;
            if (idle < LINGER_NANOS) {
                again[0] = LINGER_NANOS - idle;
                return current;
            }
            transport.unsubscribe(name);
            return null;
        });
        if (again[0] > 0) {
            scheduleIdleCheck(c, again[0]);
        }
    }

    private void unsubscribeIfIdle(Channel c) {
        channels.computeIfPresent(c.name, (name, current) -> {
            if (current == c && current.members == 0) {
                transport.unsubscribe(name);
                return null;
            }
            return current;
        });
    }

    /** True when this client subscribes to no channel at all (the uncontended case). */
    boolean isEmpty() {
        return channels.isEmpty();
    }

    /** The acquisitions waiting right now, for the client's close. */
    List<Acquisition> acquisitions() {
        List<Acquisition> all = new ArrayList<>();
        for (Waiter w : byOwner.values()) {
            all.add(w.acquisition);
        }
        return all;
    }

    static final class Channel {
        final String name;
        final CompletableFuture<Void> subscribed;
        final ConcurrentLinkedQueue<Waiter> queue = new ConcurrentLinkedQueue<>();
        int members; // guarded by the map's compute
        long idleSince; // when members last dropped to 0; guarded by the map's compute
        boolean checkPending; // an idle check is scheduled; guarded by the map's compute

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

    /**
     * One waiting acquire. Its signal, renewed by {@link #arm()}, completes when it should act: TRUE
     * for a wake-up or a hand-off, FALSE for its own timer or cancellation. A hand-off also records
     * the token, which stays until the acquisition takes it.
     */
    static final class Waiter {
        private static final long NONE = -1;

        final String owner;
        final Acquisition acquisition;
        private volatile Channel channel;
        private volatile CompletableFuture<Boolean> signal = new CompletableFuture<>();
        private volatile long grantedToken = NONE;

        Waiter(String owner, Acquisition acquisition) {
            this.owner = owner;
            this.acquisition = acquisition;
        }

        CompletableFuture<Void> subscribed() {
            return channel.subscribed;
        }

        /**
         * Returns a fresh signal; call it before sending each try, so that a release that happens
         * while the try is in flight still wakes this waiter.
         */
        CompletableFuture<Boolean> arm() {
            signal = new CompletableFuture<>();
            if (grantedToken != NONE) {
                signal.complete(Boolean.TRUE);
            }
            return signal;
        }

        /** The token a release handed this waiter the lock with, or -1. */
        long grantedToken() {
            return grantedToken;
        }

        /** True if a wake-up reached this waiter and no try has consumed it since. */
        boolean wasWoken() {
            CompletableFuture<Boolean> s = signal;
            return grantedToken == NONE && s.isDone() && Boolean.TRUE.equals(s.getNow(Boolean.FALSE));
        }

        /** Returns the signal armed before the last try. */
        CompletableFuture<Boolean> signalForWait() {
            return signal;
        }

        void grant(long token) {
            grantedToken = token;
            signal.complete(Boolean.TRUE);
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
