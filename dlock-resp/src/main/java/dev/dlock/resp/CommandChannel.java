package dev.dlock.resp;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The pipelined command connection shared by all of a client's threads.
 *
 * <p>Concurrency: a caller encodes its command and writes it to the socket itself, under {@code
 * writeLock}, so a command costs no hand-off to an I/O thread. Before writing, it appends the
 * command to the connection's FIFO under {@code queueLock}; one reader thread per connection takes
 * replies off the socket and completes the FIFO's head. The reader never takes {@code writeLock}: a
 * writer blocked on a full socket must not keep the reader from draining replies. No future is ever
 * completed while a lock is held, because completion runs the caller's dependent stages, which may
 * send commands. Lock order: {@code writeLock}, then {@code queueLock}.
 *
 * <p>While disconnected, commands wait in {@code waiting} and a reconnect thread runs; once it has
 * connected and shaken hands it sends the waiting commands that have not timed out, in order. A
 * command that timed out before it was sent is never sent (its caller may have compensated already).
 */
final class CommandChannel {
    private final RedisEndpoint endpoint;
    private final String clientName;
    private final Duration timeout;
    private final String maskedUri;

    private final ReentrantLock writeLock = new ReentrantLock();
    private final ReentrantLock queueLock = new ReentrantLock();
    private final CommandBuffer buffer = new CommandBuffer(); // guarded by writeLock
    private final Set<String> loaded = new HashSet<>(); // SHA-1s sent as source on link; guarded by writeLock
    private final ArrayDeque<EvalCommand> waiting = new ArrayDeque<>(); // guarded by queueLock
    private volatile Link link; // written under writeLock and queueLock
    private boolean reconnecting; // guarded by queueLock
    private volatile RuntimeException lastConnectFailure;
    private volatile boolean closed;

    /** One connected socket and the commands sent on it that wait for a reply. */
    private final class Link {
        final Connection connection;
        final ArrayDeque<EvalCommand> sent = new ArrayDeque<>(); // guarded by queueLock
        boolean alive = true; // guarded by queueLock

        Link(Connection connection) {
            this.connection = connection;
        }
    }

    CommandChannel(RedisEndpoint endpoint, String clientName, Duration timeout, String maskedUri) {
        this.endpoint = endpoint;
        this.clientName = clientName;
        this.timeout = timeout;
        this.maskedUri = maskedUri;
    }

    /** Connects on the calling thread, failing fast; see {@link Connection#open}. */
    void connect() {
        install(Connection.open(endpoint, clientName, timeout, maskedUri));
    }

    void send(EvalCommand command) {
        RuntimeException failure = null;
        writeLock.lock();
        try {
            Link l = link;
            if (l != null) {
                boolean asSource = loaded.add(command.script.script.sha1());
                command.encode(buffer, asSource);
                queueLock.lock();
                try {
                    if (l.alive) {
                        l.sent.addLast(command);
                    } else {
                        l = null;
                    }
                } finally {
                    queueLock.unlock();
                }
            }
            if (l == null) {
                failure = park(command);
            } else {
                try {
                    buffer.writeTo(l.connection.out);
                } catch (IOException e) {
                    l.connection.close(); // the reader fails everything sent on it, this command too
                }
            }
        } finally {
            writeLock.unlock();
        }
        if (failure != null) {
            command.completeExceptionally(failure);
        }
    }

    /** Queues a command until a connection is up; returns the failure to complete it with instead. */
    private RuntimeException park(EvalCommand command) {
        boolean start;
        queueLock.lock();
        try {
            if (closed) {
                return Failures.closed(maskedUri);
            }
            waiting.addLast(command);
            start = !reconnecting;
            reconnecting = true;
        } finally {
            queueLock.unlock();
        }
        if (start) {
            Daemons.start("dlock-resp-connect-" + clientName, this::reconnect);
        }
        return null;
    }

    private void reconnect() {
        for (int attempt = 0; !closed; attempt++) {
            Daemons.backOff(attempt);
            try {
                install(Connection.open(endpoint, clientName, timeout, maskedUri));
                return;
            } catch (RuntimeException e) {
                lastConnectFailure = e;
            }
        }
    }

    /** Puts a fresh connection in place and sends what waited for it, before any newer command. */
    private void install(Connection connection) {
        writeLock.lock();
        try {
            Link l = new Link(connection);
            List<EvalCommand> resend;
            queueLock.lock();
            try {
                if (closed) {
                    connection.close();
                    return;
                }
                resend = new ArrayList<>(waiting);
                waiting.clear();
                reconnecting = false;
                loaded.clear(); // possibly another server, or the same one restarted: send sources again
                link = l;
            } finally {
                queueLock.unlock();
            }
            lastConnectFailure = null;
            Daemons.start("dlock-resp-reader-" + clientName, () -> read(l));
            for (EvalCommand command : resend) {
                if (!command.isDone()) {
                    send(command); // re-entrant: writeLock is held, so nothing newer overtakes it
                }
            }
        } finally {
            writeLock.unlock();
        }
    }

    private void read(Link l) {
        try {
            while (true) {
                Object reply = l.connection.reader.read();
                EvalCommand command;
                queueLock.lock();
                try {
                    command = l.sent.pollFirst();
                } finally {
                    queueLock.unlock();
                }
                if (command == null) {
                    throw new IOException("Redis sent a reply to no command: " + reply);
                }
                deliver(command, reply);
            }
        } catch (IOException | RuntimeException e) {
            lost(l, e);
        }
    }

    private void deliver(EvalCommand command, Object reply) {
        if (!(reply instanceof ErrorReply error)) {
            command.complete(reply);
        } else if (error.message().startsWith("NOSCRIPT") && !command.sentAsSource) {
            // The server restarted or flushed its scripts. Resending takes writeLock, which this
            // reader must never wait for, so another thread does it.
            ForkJoinPool.commonPool().execute(() -> resendAsSource(command));
        } else {
            command.completeExceptionally(Failures.reply(maskedUri, error.message()));
        }
    }

    private void resendAsSource(EvalCommand command) {
        writeLock.lock();
        try {
            loaded.remove(command.script.script.sha1());
            if (!command.isDone()) {
                send(command);
            }
        } finally {
            writeLock.unlock();
        }
    }

    private void lost(Link l, Throwable cause) {
        List<EvalCommand> failed;
        boolean start;
        queueLock.lock();
        try {
            l.alive = false;
            failed = new ArrayList<>(l.sent);
            l.sent.clear();
            if (link == l) {
                link = null;
            }
            start = !closed && !reconnecting;
            reconnecting |= start;
        } finally {
            queueLock.unlock();
        }
        l.connection.close();
        if (!failed.isEmpty()) {
            RuntimeException failure = closed ? Failures.closed(maskedUri) : Failures.lost(maskedUri, cause);
            for (EvalCommand command : failed) {
                command.completeExceptionally(failure);
            }
        }
        if (start) {
            Daemons.start("dlock-resp-connect-" + clientName, this::reconnect);
        }
    }

    /** Collects the commands past their deadline into {@code overdue}; called by the timer. */
    void collectOverdue(long now, List<Pending<?>> overdue) {
        queueLock.lock();
        try {
            Link l = link;
            if (l != null) {
                Timeouts.collect(l.sent, now, overdue);
            }
            Timeouts.remove(waiting, now, overdue); // never to be sent
        } finally {
            queueLock.unlock();
        }
    }

    /** Why commands are not being sent, for timeout messages; null when connected. */
    RuntimeException notConnectedReason() {
        return link == null ? lastConnectFailure : null;
    }

    void close() {
        List<EvalCommand> failed;
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
            l.connection.close(); // ends the reader
        }
        RuntimeException failure = Failures.closed(maskedUri);
        for (EvalCommand command : failed) {
            command.completeExceptionally(failure);
        }
    }
}
