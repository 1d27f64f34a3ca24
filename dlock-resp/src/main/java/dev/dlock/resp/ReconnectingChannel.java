package dev.dlock.resp;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connection life cycle that {@link CommandChannel} and {@link PubSubChannel} share, so that each
 * keeps only its own job. At most one {@link Link} is live: a connection (connected with the timeout,
 * handshake done, see {@link Connection#open}) and the requests sent on it, awaiting their replies in
 * order. One reader thread per link ({@code <threadPrefix>reader-<clientName>}) hands each reply to
 * {@link #onReply}. When a read fails (a failed write closes the socket, so it ends up here too) the
 * link is lost: the subclass sorts out what was sent on it ({@link #onLost}, {@link #settleLost}) and,
 * unless the channel is closed, a connect thread ({@code <threadPrefix>connect-<clientName>}) opens a
 * new connection with back-off ({@link Connection#openRetrying}). Requests issued while no link is
 * live wait in {@code waiting}; the subclass's {@link #install} puts the new link in place with
 * {@link #attach}, sends what waited and starts the reader with {@link #startReader}. {@link #close}
 * fails everything pending.
 *
 * <p>Concurrency: {@code lock} guards the link, the queues and whether a connect thread runs, and is
 * held only for in-memory work; futures are completed with it released, since completion runs the
 * caller's dependent stages, which may issue requests.
 *
 * @param <P> the requests: what waits in the queues and is completed by a reply
 */
abstract class ReconnectingChannel<P extends Pending<?>> {
    private static final System.Logger LOG = System.getLogger("dev.dlock");

    private final ServerDialer dialer;
    private final String clientName;
    private final String threadPrefix;
    final Duration timeout;
    final String maskedUri;

    final ReentrantLock lock = new ReentrantLock();
    final ArrayDeque<P> waiting = new ArrayDeque<>(); // not yet sent, in order; guarded by lock
    private final List<ArrayDeque<P>> waitingOnly = List.of(waiting);
    Link<P> link; // the live link, null while there is none; guarded by lock
    private boolean connecting; // a connect thread runs; guarded by lock
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
     * start one with {@link #connectInBackground} once it has released the lock. Lock held.
     */
    final boolean connectNeeded() {
        boolean start = !closed && !connecting;
        connecting |= start;
        return start;
    }

    /** Starts a daemon thread named {@code <threadPrefix><role>-<clientName>}. */
    final void startDaemon(String role, Runnable body) {
        Daemons.start(threadPrefix + role + "-" + clientName, body);
    }

    final void connectInBackground() {
        Daemons.start(threadPrefix + "connect-" + clientName, this::reconnect);
    }

    private void reconnect() {
        Connection c = Connection.openRetrying(
                dialer, clientName, timeout, maskedUri, () -> closed, e -> lastConnectFailure = e);
        if (c != null) {
            install(c);
            return;
        }
        lock.lock();
        try {
            connecting = false;
        } finally {
            lock.unlock();
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
