package dev.dlock.internal.wait;

import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Ticker;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Multiplexes every waiter of one client onto one pub/sub connection, with one subscription per
 * lock name however many of the client's threads wait for it. Protocol: a waiter joins the channel
 * of its lock (the first joiner subscribes, and Redis confirms before the waiter queues itself in
 * Redis), then queues with tries that carry its wait id, unique in this client, and the try's number
 * ({@code <wait id>.<try>}). A release hands the lock to the oldest queued waiter of any client and
 * publishes {@code g <token> <wait id>.<try> <owner>} on that owner's client's own channel for that
 * lock, naming the try whose queue entry it consumed. The message reaches exactly the wait it was
 * issued for: the wait id, the channel (so the lock name) and the owner must all match; the waiter
 * then takes it only if it names its last queueing try that found the lock busy (QueuedAcquisition):
 * an older try's grant came before a try that found the lock busy, so it is stale.
 * A message that comes late (its wait took the lock by its own try, gave up, or ended) matches
 * nothing and is dropped: a thread's owner id is the same for every lock and every wait, so routing
 * by owner alone would let an old grant complete a new wait. A channel whose subscribe failed is
 * subscribed anew by the next waiter. Any other message (a forced release, or a release that could not
 * hand off) wakes the longest-waiting waiter of each client to try for itself; a woken waiter that
 * leaves without trying passes the wake-up on. A channel stays subscribed for a short linger
 * after its last waiter left, so that a client that contends again queues on its very first try
 * instead of subscribing anew. One idle check per channel is pending at a time, not one per
 * waiter that left: a busy lock would otherwise put a task on the timer for every acquisition.
 */
public final class WaitRoom {
    static final long LINGER_MILLIS = 5_000;
    private static final long LINGER_NANOS = TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS);

    private final Transport transport;
    private final ScheduledExecutorService scheduler;
    private final Ticker ticker;
    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Waiter> byWait = new ConcurrentHashMap<>();
    private final boolean grantByOwner; // the negative control of Controls.CROSS_LOCK_GRANT
    private final Duration subscribeBound;

    /**
     * @param subscribeBound how long a subscription may go unconfirmed before the waits on it fail: the
     *     SPI promises an answer within the command timeout, and a transport that breaks the promise
     *     must fail those waits rather than hang them
     */
    public WaitRoom(
            Transport transport,
            ScheduledExecutorService scheduler,
            Ticker ticker,
            boolean grantByOwner,
            Duration subscribeBound) {
        this.transport = transport;
        this.scheduler = scheduler;
        this.ticker = ticker;
        this.grantByOwner = grantByOwner;
        this.subscribeBound = subscribeBound;
        transport.onMessage(this::onMessageLogged);
    }

    private void onMessageLogged(String channel, String message) {
        try {
            onMessage(channel, message);
        } catch (RuntimeException e) {
            Log.LOG.log(
                    System.Logger.Level.ERROR,
                    "dlock dropped a malformed pub/sub message on " + channel + ": '" + message + "'",
                    e);
        }
    }

    private void onMessage(String channel, String message) {
        if (message.startsWith("g ")) {
            int space = message.indexOf(' ', 2);
            int second = space < 0 ? -1 : message.indexOf(' ', space + 1);
            if (second > space + 1) {
                long token = Long.parseLong(message, 2, space, 10);
                int dot = message.lastIndexOf('.', second);
                String wait = message.substring(space + 1, dot > space ? dot : second);
                long tryNumber = dot > space ? Long.parseLong(message, dot + 1, second, 36) : -1;
                String owner = message.substring(second + 1);
                Waiter w = grantByOwner ? anyWaitOf(owner) : byWait.get(wait);
                if (w != null && (grantByOwner || (w.owner.equals(owner) && w.channel.name.equals(channel)))) {
                    w.grant(new Grant(token, tryNumber));
                }
            }
            // else: for a wait that has ended, or from a client before wait ids (the waiter takes the
            // lock by its next try, which finds it granted to its owner)
            return;
        }
        Channel c = channels.get(channel);
        if (c != null) {
            c.wakeOne();
        }
    }

    /** The defect the control re-introduces: any wait of the owner, whatever its lock. */
    private Waiter anyWaitOf(String owner) {
        for (Waiter w : byWait.values()) {
            if (w.owner.equals(owner)) {
                return w;
            }
        }
        return null;
    }

    /**
     * Joins the channel; the returned waiter's {@code subscribed} completes once Redis confirmed. A
     * channel whose subscribe failed is replaced by a fresh subscription: one failure must not fail
     * every later wait for the lock.
     */
    Waiter join(String channel, String owner, String waitId, AbortableWait acquisition) {
        Waiter waiter = new Waiter(owner, waitId, acquisition);
        // subscribe() only queues the command, so calling it under the map's lock keeps the order
        // of a channel's UNSUBSCRIBE and a later SUBSCRIBE without blocking anyone
        Channel joined = channels.compute(channel, (name, c) -> {
            Channel j = c == null || c.subscribed.isCompletedExceptionally()
                    ? new Channel(name, bounded(name, transport.subscribe(name)))
                    : c;
            j.members++;
            return j;
        });
        return enter(joined, waiter);
    }

    /**
     * The subscription as the waits see it: failed with a {@link TimeoutException} if the transport has
     * not confirmed it within the bound, so that the next join subscribes anew.
     */
    private CompletableFuture<Void> bounded(String name, CompletableFuture<Void> subscribe) {
        CompletableFuture<Void> bounded = subscribe.copy();
        if (!bounded.isDone()) {
            ScheduledFuture<?> timer = scheduler.schedule(
                    () -> bounded.completeExceptionally(
                            new TimeoutException("SUBSCRIBE " + name + " was not confirmed within " + subscribeBound)),
                    subscribeBound.toNanos(),
                    TimeUnit.NANOSECONDS);
            bounded.whenComplete((ok, error) -> timer.cancel(false));
        }
        return bounded;
    }

    /** Makes a waiter that is counted as a member of {@code c} reachable by messages. */
    private Waiter enter(Channel c, Waiter waiter) {
        waiter.channel = c; // before it is reachable: a message checks it
        c.queue.add(waiter);
        byWait.put(waiter.waitId, waiter);
        return waiter;
    }

    /**
     * Joins the channel only if this client is already subscribed to it and Redis has confirmed
     * that; returns null otherwise, changing nothing.
     */
    Waiter joinIfSubscribed(String channel, String owner, String waitId, AbortableWait acquisition) {
        Channel c = channels.get(channel);
        if (c == null || !c.subscribed.isDone() || c.subscribed.isCompletedExceptionally()) {
            return null;
        }
        Waiter waiter = new Waiter(owner, waitId, acquisition);
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
        byWait.remove(waiter.waitId, waiter);
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
    public List<AbortableWait> acquisitions() {
        List<AbortableWait> all = new ArrayList<>();
        for (Waiter w : byWait.values()) {
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
     * A hand-off as its message told it.
     *
     * @param token the fencing token of the granted hold
     * @param tryNumber the number of the queueing try whose queue entry the grant consumed; -1 when the
     *     message named none
     */
    record Grant(long token, long tryNumber) {}

    /**
     * One waiting acquire. Its signal, renewed by {@link #arm()}, completes when it should act: TRUE
     * for a wake-up or a hand-off, FALSE for its own timer or cancellation. A hand-off also records
     * the grant, which stays until the acquisition takes it or finds it stale.
     */
    static final class Waiter {
        final String owner;
        final String waitId;
        final AbortableWait acquisition;
        private volatile Channel channel;
        private volatile CompletableFuture<Boolean> signal = new CompletableFuture<>();
        private final AtomicReference<Grant> grant = new AtomicReference<>();

        Waiter(String owner, String waitId, AbortableWait acquisition) {
            this.owner = owner;
            this.waitId = waitId;
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
            if (grant.get() != null) {
                signal.complete(Boolean.TRUE);
            }
            return signal;
        }

        /** The last grant a release's message brought this waiter, or null. */
        Grant grant() {
            return grant.get();
        }

        /** True if a wake-up reached this waiter and no try has consumed it since. */
        boolean wasWoken() {
            CompletableFuture<Boolean> s = signal;
            return grant.get() == null && s.isDone() && Boolean.TRUE.equals(s.getNow(Boolean.FALSE));
        }

        /** Returns the signal armed before the last try. */
        CompletableFuture<Boolean> signalForWait() {
            return signal;
        }

        /** Forgets any grant: the acquisition has used it up (it revalidates with a try of its own). */
        void clearGrant() {
            grant.set(null);
        }

        /** Forgets {@code stale} unless a newer grant replaced it meanwhile. */
        void dropGrant(Grant stale) {
            grant.compareAndSet(stale, null);
        }

        void grant(Grant g) {
            grant.set(g);
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
