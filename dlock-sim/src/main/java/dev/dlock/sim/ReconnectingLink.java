package dev.dlock.sim;

import dev.dlock.LockConnectionException;

/**
 * The life cycle of one of a {@link SimTransport}'s connections after a drop, as dlock-resp's {@code
 * ReconnectingChannel} runs it: connect attempts at once and then after a back-off of 20, 40, 80 ms... up to 1 s
 * between attempts, never two within 50 ms; a request issued while down cuts the back-off short (it waits, queued, for
 * the connection); once an attempt was refused and a second has passed since the loss, the requests issued before that
 * attempt began fail with a {@link LockConnectionException}, never sent. Or, {@code lettuce}, as Lettuce's connection
 * watchdog runs it: attempts after 1, 2, 4, 8 ms... up to 30 s, and the requests wait for the reconnect, bounded by
 * their command timeout only. The transport keeps the requests; this keeps whether the link is up and when to try
 * again.
 *
 * <p>Not thread-safe: drops and reconnects happen on the simulation's one thread (under {@link SimNetwork#direct()}, a
 * reconnect completes at once, within the call that needed it).
 */
final class ReconnectingLink {
    static final long MS = 1_000_000;
    /** How long after a loss requests wait for the reconnect once an attempt was refused (dlock-resp's grace). */
    static final long GRACE_NANOS = 1_000 * MS;

    private static final long MIN_ATTEMPT_GAP_NANOS = 50 * MS;
    private static final long FIRST_RETRY_NANOS = 20 * MS;
    private static final long LAST_RETRY_NANOS = 1_000 * MS;

    /** What the transport does when the link is back, and when its waiting requests are to fail. */
    interface Owner {
        /** The link is up again: send what waited, restore what the connection held. */
        void connected();

        /**
         * Fails the requests waiting for the connection that were issued no later than {@code issuedBy}.
         *
         * @param issuedBy the start of the refused attempt
         * @param failure what they fail with
         */
        void failWaiting(long issuedBy, LockConnectionException failure);
    }

    private final SimNetwork.Link link;
    private final SimNetwork network;
    private final EventLoop loop; // null: no timers (a direct network, whose connects never fail)
    private final String uri;
    private final boolean lettuce;
    private Owner owner;
    private boolean up = true;
    private boolean closed;
    private boolean connecting; // from the loss until the link is up again
    private boolean attemptInFlight;
    private EventLoop.Event nextAttempt; // the attempt the back-off waits for, or null
    private long nextAttemptAt;
    private int attempt;
    private long disconnectedSince;
    private long lastAttemptStart = Long.MIN_VALUE / 2;
    private boolean refused;
    private long refusedAttemptStart;

    ReconnectingLink(SimNetwork.Link link, SimNetwork network, EventLoop loop, String uri, boolean lettuce) {
        this.lettuce = lettuce;
        this.link = link;
        this.network = network;
        this.loop = loop;
        this.uri = uri;
    }

    void owner(Owner owner) {
        this.owner = owner;
    }

    /** Whether the link has a connection now. */
    boolean isUp() {
        return up;
    }

    /** The connection is gone: requests wait from now on, and attempts begin at once. */
    void lost() {
        if (!up || closed) {
            return;
        }
        up = false;
        needed();
    }

    /** A request waits for the connection: attempts begin, or the back-off is cut short. */
    void needed() {
        if (closed || up) {
            return;
        }
        if (connecting) {
            hurry();
            return;
        }
        connecting = true;
        disconnectedSince = now();
        refused = false;
        attempt = 0;
        if (loop != null && !lettuce) {
            loop.after(GRACE_NANOS, this::failWaitingIfDown);
        }
        if (lettuce && loop != null) {
            schedule(now() + MS);
        } else {
            attemptNow();
        }
    }

    /** Stops reconnecting. */
    void close() {
        closed = true;
        if (nextAttempt != null) {
            nextAttempt.cancel();
            nextAttempt = null;
        }
    }

    private void hurry() {
        if (lettuce || attemptInFlight || nextAttempt == null) {
            return;
        }
        long at = Math.max(now(), lastAttemptStart + MIN_ATTEMPT_GAP_NANOS);
        if (at < nextAttemptAt) {
            nextAttempt.cancel();
            schedule(at);
        }
    }

    private void schedule(long at) {
        nextAttemptAt = at;
        nextAttempt = loop.after(at - now(), this::attemptNow);
    }

    private void attemptNow() {
        nextAttempt = null;
        if (closed || up) {
            return;
        }
        attemptInFlight = true;
        long start = now();
        lastAttemptStart = start;
        network.connect(link, reached -> {
            attemptInFlight = false;
            if (closed || up) {
                return;
            }
            if (reached) {
                up = true;
                connecting = false;
                refused = false;
                owner.connected();
                return;
            }
            refused = true;
            refusedAttemptStart = start;
            failWaitingIfDown();
            attempt++;
            if (loop == null) {
                attemptNow();
                return;
            }
            if (lettuce) {
                schedule(now() + Math.min(30_000 * MS, MS << Math.min(attempt, 15)));
                return;
            }
            long pause = Math.min(LAST_RETRY_NANOS, FIRST_RETRY_NANOS << Math.min(attempt - 1, 10));
            schedule(Math.max(now() + pause, start + MIN_ATTEMPT_GAP_NANOS));
        });
    }

    private void failWaitingIfDown() {
        long now = now();
        if (lettuce || up || closed || !refused || now - disconnectedSince < GRACE_NANOS) {
            return;
        }
        owner.failWaiting(
                refusedAttemptStart,
                new LockConnectionException(
                        uri,
                        "not connected to Redis for " + (now - disconnectedSince) / MS
                                + " ms, and reconnecting fails (connection refused); not sent",
                        null));
    }

    private long now() {
        return loop == null ? 0 : loop.now();
    }
}
