package dev.dlock.resp;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connection life cycle that {@link CommandChannel} and {@link PubSubChannel} share, so that each
 * keeps only its own job. At most one {@link Link} is live: a connection (connected with the timeout,
 * handshake done, see {@link Connection#open}) and the requests sent on it, awaiting their replies in
 * order. One reader thread per link ({@code <threadPrefix>reader-<clientName>}) hands each reply to
 * {@link #onReply}. When a read fails (a failed write closes the socket, so it ends up here too) the
 * link is lost: the subclass sorts out what was sent on it ({@link #onLost}, {@link #settleLost}) and,
 * unless the channel is closed, a connect thread ({@code <threadPrefix>connect-<clientName>}) opens a
 * new connection with back-off (0, 20, 40, 80 ms... up to 1 s between attempts). Requests issued
 * while no link is live wait in {@code waiting}; the subclass's {@link #install} puts the new link
 * in place with {@link #attach}, sends what waited and starts the reader with {@link #startReader}.
 * {@link #close} fails everything pending.
 *
 * <p>An outage of a standalone server is told to callers within about a second, not a whole command
 * timeout (behind sentinels, where a refused master means a failover that takes seconds, requests
 * wait the timeout as before): while no link is live, a request waits for the reconnect at most {@link #RECONNECT_GRACE_NANOS} (1 s) from the loss (a
 * restart or a dropped connection is ridden out), unless no connect attempt has failed yet (a connect
 * that hangs is bounded by the timeout). Once the grace has passed with an attempt failed, the
 * waiting requests fail ({@link Failures#notConnected}), and so does each later one as soon as the
 * connect attempt it triggers at once (cutting the back-off short, at most one attempt per {@link
 * #MIN_ATTEMPT_GAP_NANOS}) fails too. Requests that fail so were never sent.
 *
 * <p>Concurrency: {@code lock} guards the link, the queues and whether a connect thread runs, and is
 * held only for in-memory work; futures are completed with it released, since completion runs the
 * caller's dependent stages, which may issue requests.
 *
 * @param <P> the requests: what waits in the queues and is completed by a reply
 */
abstract class ReconnectingChannel<P extends Pending<?>> {
    private static final System.Logger LOG = System.getLogger("dev.dlock");

    /** How long after a loss requests wait for the reconnect once a connect attempt has failed. */
    static final long RECONNECT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** The least time between two connect attempts, however often requests ask for one. */
    static final long MIN_ATTEMPT_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ServerDialer dialer;
    private final String clientName;
    private final String threadPrefix;
    private final long graceNanos;
    final Duration timeout;
    final String maskedUri;

    final ReentrantLock lock = new ReentrantLock();
    final ArrayDeque<P> waiting = new ArrayDeque<>(); // not yet sent, in order; guarded by lock
    private final List<ArrayDeque<P>> waitingOnly = List.of(waiting);
    Link<P> link; // the live link, null while there is none; guarded by lock
    private boolean connecting; // a connect thread runs; guarded by lock
    private Thread connectThread; // the connect thread once it runs, to wake it early; guarded by lock
    private volatile long disconnectedSince; // System.nanoTime() when the running connect thread was needed
    private volatile RuntimeException refusal; // the running connect thread's latest failed attempt, or null
    private volatile long refusedAttemptStart; // System.nanoTime() when that attempt began
    volatile RuntimeException lastConnectFailure;
    volatile boolean closed;
    private volatile Runnable onDemoted = () -> {};

    /** One connected socket and the requests sent on it that wait for a reply, in order. */
    static final class Link<P> {
        final Connection connection;
        final ArrayDeque<P> sent = new ArrayDeque<>(); // guarded by the channel's lock

        Link(Connection connection) {
            this.connection = connection;
        }
    }

    ReconnectingChannel(
            ServerDialer dialer, String clientName, Duration timeout, String maskedUri, String threadPrefix) {
        this(dialer, clientName, timeout, maskedUri, threadPrefix, RECONNECT_GRACE_NANOS);
    }

    /** A channel whose requests wait {@code graceNanos} for a reconnect instead of {@link #RECONNECT_GRACE_NANOS}. */
    ReconnectingChannel(
            ServerDialer dialer,
            String clientName,
            Duration timeout,
            String maskedUri,
            String threadPrefix,
            long graceNanos) {
        // Behind sentinels a refused master is a failover under way, which takes seconds: wait the timeout.
        this.graceNanos = dialer.followsMaster() ? -1 : graceNanos;
        this.dialer = dialer;
        this.clientName = clientName;
        this.timeout = timeout;
        this.maskedUri = maskedUri;
        this.threadPrefix = threadPrefix;
    }

    /** Puts a fresh connection in place with {@link #attach}, then starts it with {@link #startReader}. */
    abstract void install(Connection connection);

    /** Handles one reply read from {@code l}, on its reader thread; an exception loses the link. */
    abstract void onReply(Link<P> l, Object reply) throws IOException;

    /**
     * Sorts out the requests that were sent on a lost link, taken off it in order: puts back in the
     * queues what is to go on the next link and returns what {@link #settleLost} is to complete. Lock
     * held.
     *
     * @param wasLive whether {@code l} was still the live link (else the channel was closed meanwhile)
     */
    abstract List<P> onLost(List<P> sent, boolean wasLive, Throwable cause);

    /** Completes what {@link #onLost} returned; no lock held. */
    abstract void settleLost(List<P> settled, Throwable cause);

    /**
     * The queues of requests not yet sent, in the order they are to go: failed on close, and overdue
     * ones taken out by the timer. Just {@code waiting} unless a subclass has more. Lock held.
     */
    List<ArrayDeque<P>> unsent() {
        return waitingOnly;
    }

    /** Called when the live link is dropped, lost or closed, to discard what belonged to it. Lock held. */
    void unlinked() {}

    /** Connects on the calling thread, failing fast; see {@link ServerDialer#open}. */
    final void connect() {
        install(dialer.open(clientName, timeout, maskedUri));
    }

    /**
     * Sets what runs, on the reader thread, after this channel dropped its connection because the
     * server answered {@code READONLY} (see {@link #read}).
     */
    final void onDemoted(Runnable action) {
        this.onDemoted = action;
    }

    /**
     * Closes the live connection, if any, as if it had broken: its reader fails or requeues what was
     * sent on it ({@link #onLost}) and a reconnect follows, through the dialer, so to the master of
     * now. Used when the other channel found the master demoted.
     */
    final void drop() {
        Link<P> l;
        lock.lock();
        try {
            l = link;
        } finally {
            lock.unlock();
        }
        if (l != null) {
            l.connection.close();
        }
    }

    /**
     * Records that a connect thread is needed; returns true if none runs yet, and the caller must then
     * start one with {@link #connectInBackground} once it has released the lock. If one runs, wakes it
     * from its back-off, so that a request learns soon whether Redis can be reached. Lock held.
     */
    final boolean connectNeeded() {
        if (closed) {
            return false;
        }
        if (connecting) {
            if (connectThread != null) {
                LockSupport.unpark(connectThread);
            }
            return false;
        }
        connecting = true;
        disconnectedSince = System.nanoTime();
        refusal = null;
        return true;
    }

    /** Starts a daemon thread named {@code <threadPrefix><role>-<clientName>}. */
    final void startDaemon(String role, Runnable body) {
        Daemons.start(threadPrefix + role + "-" + clientName, body);
    }

    final void connectInBackground() {
        Daemons.start(threadPrefix + "connect-" + clientName, this::reconnect);
    }

    /** Connects with back-off until a connection is installed or the channel is closed. */
    private void reconnect() {
        lock.lock();
        try {
            connectThread = Thread.currentThread();
        } finally {
            lock.unlock();
        }
        long lastAttempt = 0;
        for (int attempt = 0; !closed; attempt++) {
            if (attempt > 0) {
                pause(attempt, lastAttempt);
            }
            lastAttempt = System.nanoTime();
            Connection c;
            try {
                c = dialer.open(clientName, timeout, maskedUri);
            } catch (RuntimeException e) {
                lastConnectFailure = e;
                refusedAttemptStart = lastAttempt;
                refusal = e;
                failWaitingIfDown(System.nanoTime());
                continue;
            }
            install(c);
            return;
        }
        lock.lock();
        try {
            connecting = false;
            connectThread = null;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sleeps the back-off before attempt {@code attempt}, cut short by {@link #connectNeeded} but
     * never closer than {@link #MIN_ATTEMPT_GAP_NANOS} to the previous attempt's start.
     */
    private void pause(int attempt, long lastAttempt) {
        LockSupport.parkNanos(Daemons.backOffNanos(attempt));
        for (long left = lastAttempt + MIN_ATTEMPT_GAP_NANOS - System.nanoTime();
                left > 0 && !closed;
                left = lastAttempt + MIN_ATTEMPT_GAP_NANOS - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Fails the requests waiting for a connection if Redis is known to be unreachable: no link, a
     * connect attempt failed, and the grace ({@link #RECONNECT_GRACE_NANOS}) passed since the loss.
     * Only those issued before that attempt began: a newer one waits for the attempt it triggered,
     * which may find Redis back. Called by the transport's timer and after each failed attempt; takes
     * the lock only then.
     */
    final void failWaitingIfDown(long now) {
        RuntimeException why = refusal;
        if (why == null || graceNanos < 0 || now - disconnectedSince < graceNanos) {
            return;
        }
        List<P> failed = new ArrayList<>();
        lock.lock();
        try {
            if (link != null || closed || refusal == null) {
                return;
            }
            long attemptStart = refusedAttemptStart;
            List<ArrayDeque<P>> queues = unsent();
            for (int i = 0; i < queues.size(); i++) {
                ArrayDeque<P> queue = queues.get(i);
                for (P p = queue.peekFirst(); p != null && p.issued - attemptStart <= 0; p = queue.peekFirst()) {
                    failed.add(queue.pollFirst()); // queued in the order issued (a lost link's go first)
                }
            }
        } finally {
            lock.unlock();
        }
        if (!failed.isEmpty()) {
            RuntimeException failure = Failures.notConnected(maskedUri, why, now - disconnectedSince);
            for (P p : failed) {
                p.fail(failure);
            }
        }
    }

    /**
     * Makes {@code l} the live link; returns false, having closed its connection, if the channel was
     * closed meanwhile. Lock held.
     */
    final boolean attach(Link<P> l) {
        if (closed) {
            l.connection.close();
            return false;
        }
        connecting = false;
        connectThread = null;
        refusal = null;
        link = l;
        return true;
    }

    /** Starts the reader of a link {@link #attach}ed, once the requests it is to answer first are queued. */
    final void startReader(Link<P> l) {
        lastConnectFailure = null;
        Daemons.start(threadPrefix + "reader-" + clientName, () -> read(l));
    }

    /**
     * Reads replies until the connection fails. Behind a Sentinel, a {@code READONLY} reply means the
     * server was demoted while this connection stayed up (it was paused or cut off, and came back as
     * a replica): see {@link #demoted}.
     */
    private void read(Link<P> l) {
        try {
            while (true) {
                Object reply = l.connection.reader.read();
                if (reply instanceof ErrorReply error
                        && error.message().startsWith("READONLY")
                        && dialer.followsMaster()) {
                    demoted(l, error);
                }
                onReply(l, reply);
            }
        } catch (IOException | RuntimeException e) {
            lost(l, e);
        }
    }

    /**
     * Drops a link whose server answered {@code READONLY}, before that reply is delivered: the link
     * stops being live first, so that whatever the caller issues once it sees the reply waits for the
     * reconnect (which asks the sentinels for the new master) instead of following on the demoted
     * server; that keeps commands in the order they were issued. The reply itself is then delivered
     * as its command's outcome (it did not run); what was sent behind it fails as after any break
     * when the next read finds the socket closed (replies already read still complete their
     * commands); retries pending on the link fail now, as on a loss.
     */
    private void demoted(Link<P> l, ErrorReply error) {
        LOG.log(
                System.Logger.Level.WARNING,
                "dlock-resp: the Redis master of {0} was demoted (READONLY: {1}); reconnecting through the sentinels",
                maskedUri,
                error.message());
        IOException cause = new IOException("the server was demoted to a replica (" + error.message() + ")");
        List<P> settled = List.of();
        boolean reconnect = false;
        lock.lock();
        try {
            if (link == l) {
                settled = onLost(new ArrayList<>(), true, cause);
                link = null;
                unlinked();
                reconnect = connectNeeded();
            }
        } finally {
            lock.unlock();
        }
        l.connection.close();
        settleLost(settled, cause);
        onDemoted.run();
        if (reconnect) {
            connectInBackground();
        }
    }

    private void lost(Link<P> l, Throwable cause) {
        List<P> settled;
        boolean reconnect = false;
        lock.lock();
        try {
            List<P> sent = new ArrayList<>(l.sent);
            l.sent.clear();
            boolean live = link == l;
            settled = onLost(sent, live, cause);
            if (live) {
                link = null;
                unlinked();
                reconnect = connectNeeded();
            }
        } finally {
            lock.unlock();
        }
        l.connection.close();
        settleLost(settled, cause);
        if (reconnect) {
            connectInBackground();
        }
    }

    /** Collects the requests past their deadline into {@code overdue}; called by the timer. */
    final void collectOverdue(long now, List<Pending<?>> overdue) {
        lock.lock();
        try {
            if (link != null) {
                Timeouts.collect(link.sent, now, overdue); // left queued, so that replies stay aligned
            }
            List<ArrayDeque<P>> queues = unsent();
            for (int i = 0; i < queues.size(); i++) {
                Timeouts.remove(queues.get(i), now, overdue); // never to be sent
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether a link is live; for tests that must know the channel has seen a loss. */
    final boolean linked() {
        lock.lock();
        try {
            return link != null;
        } finally {
            lock.unlock();
        }
    }

    /** Why requests are not being sent, for timeout messages; null when connected. */
    final RuntimeException notConnectedReason() {
        lock.lock();
        try {
            return link == null ? lastConnectFailure : null;
        } finally {
            lock.unlock();
        }
    }

    /** Fails everything pending, unsent first, and closes the connection, which ends its reader. */
    final void close() {
        List<P> failed = new ArrayList<>();
        Link<P> l;
        lock.lock();
        try {
            closed = true;
            if (connectThread != null) {
                LockSupport.unpark(connectThread); // out of its back-off, to end
            }
            l = link;
            link = null;
            unlinked();
            List<ArrayDeque<P>> queues = unsent();
            for (int i = 0; i < queues.size(); i++) {
                failed.addAll(queues.get(i));
                queues.get(i).clear();
            }
            if (l != null) {
                failed.addAll(l.sent);
                l.sent.clear();
            }
        } finally {
            lock.unlock();
        }
        if (l != null) {
            l.connection.close();
        }
        RuntimeException failure = Failures.closed(maskedUri);
        for (P p : failed) {
            p.fail(failure);
        }
    }
}
