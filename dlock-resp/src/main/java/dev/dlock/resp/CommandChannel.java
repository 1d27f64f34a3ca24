package dev.dlock.resp;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

/**
 * The pipelined command connection shared by all of a client's threads.
 *
 * <p>Concurrency: under {@code lock}, held only for in-memory work, a caller encodes its command
 * into {@code output} and appends it to the connection's FIFO of sent commands, so bytes and FIFO
 * are in the same order. If no thread is flushing, the caller becomes the flusher: it swaps {@code
 * output} for an empty buffer and writes it to the socket itself, outside the lock, until nothing is
 * left. A lone caller thus writes its own command with no hand-off to an I/O thread, and under
 * contention one write carries the commands of many threads while the others return at once. One
 * reader thread per connection takes replies off the socket and completes the FIFO's head. No future
 * is completed while the lock is held, because completion runs the caller's dependent stages, which
 * may send commands.
 *
 * <p>While disconnected, commands wait in {@code waiting} and a reconnect thread runs (see {@link
 * ReconnectingChannel}); once it has connected and shaken hands it sends the waiting commands that
 * have not timed out, in order and before any newer one. A command that timed out before it was
 * sent is never sent (its caller may have compensated already).
 *
 * <p>Order across {@code NOSCRIPT}: Redis must run commands in the order they were issued (dlock
 * undoes a timed-out acquire with a release sent right behind it). An {@code EVALSHA} answered
 * {@code NOSCRIPT} (the server flushed its scripts) did not run, but the commands pipelined behind
 * it may have. So such a command goes to {@code retry}, every newer command waits in {@code
 * waiting}, and once every command sent before the retry has answered the retries are resent with
 * their source, in order, ahead of what waited. If one of those later commands ran after all (sent
 * with its source on its first use, or by SHA with the script reloaded meanwhile by another client),
 * resending would run the retries after it, so they fail instead (outcome unknown, as for a
 * timeout). Holding a source back until nothing is in flight would avoid that, but a compensating
 * release held behind a stalled server would then time out unsent and leave its lock held.
 */
final class CommandChannel extends ReconnectingChannel<EvalCommand> {
    private CommandBuffer output = new CommandBuffer(); // guarded by lock; bytes for link, not yet written
    private CommandBuffer writing = new CommandBuffer(); // owned by the flusher
    private boolean flushing; // guarded by lock
    private final Set<String> loaded = new HashSet<>(); // SHA-1s sent as source on link; guarded by lock
    private final ArrayDeque<EvalCommand> retry = new ArrayDeque<>(); // answered NOSCRIPT, to resend; guarded by lock
    private final List<ArrayDeque<EvalCommand>> unsent = List.of(retry, waiting); // resends go first

    CommandChannel(ServerDialer dialer, String clientName, Duration timeout, String maskedUri) {
        super(dialer, clientName, timeout, maskedUri, "dlock-resp-");
    }

    void send(EvalCommand command) {
        boolean flush = false;
        boolean connect = false;
        RuntimeException failure = null;
        lock.lock();
        try {
            if (closed) {
                failure = Failures.closed(maskedUri);
            } else if (link == null) {
                waiting.addLast(command);
                connect = connectNeeded();
            } else {
                boolean known = loaded.contains(command.script.script.sha1());
                if (!waiting.isEmpty() || !retry.isEmpty()) {
                    waiting.addLast(command); // behind a resend; the reader sends it
                } else {
                    flush = enqueue(command, !known);
                }
            }
        } finally {
            lock.unlock();
        }
        if (failure != null) {
            command.completeExceptionally(failure);
        } else if (connect) {
            connectInBackground();
        } else if (flush) {
            flush();
        }
    }

    /** Encodes a command for the live link; returns true if the caller must flush. Lock held. */
    private boolean enqueue(EvalCommand command, boolean asSource) {
        if (asSource) {
            loaded.add(command.script.script.sha1());
        }
        command.encode(output, asSource);
        link.sent.addLast(command);
        if (flushing) {
            return false;
        }
        flushing = true;
        return true;
    }

    private void flush() {
        while (true) {
            Link<EvalCommand> l;
            CommandBuffer bytes;
            lock.lock();
            try {
                if (output.isEmpty() || link == null) {
                    flushing = false;
                    return;
                }
                l = link;
                bytes = output;
                output = writing;
                writing = bytes;
            } finally {
                lock.unlock();
            }
            try {
                bytes.writeTo(l.connection.out);
            } catch (IOException e) {
                l.connection.close(); // the reader fails everything sent on it
            }
            bytes.reset();
        }
    }

    /** Puts a fresh connection in place and queues what waited for it, before any newer command. */
    @Override
    void install(Connection connection) {
        Link<EvalCommand> l = new Link<>(connection);
        boolean flush;
        lock.lock();
        try {
            if (!attach(l)) {
                return;
            }
            loaded.clear(); // possibly another server, or the same one restarted: send sources again
            output.reset(); // bytes for the lost link, whose commands have failed
            flush = sendWaiting();
        } finally {
            lock.unlock();
        }
        startReader(l);
        if (flush) {
            flush();
        }
    }

    @Override
    void onReply(Link<EvalCommand> l, Object reply) throws IOException {
        EvalCommand command;
        boolean retried = false;
        List<EvalCommand> overtaken = null;
        boolean flush = false;
        lock.lock();
        try {
            command = l.sent.peekFirst();
            if (command != null && (reply = command.reply(reply)) == EvalCommand.MORE) {
                return; // a script whose WAIT follows (ReplicatedEval): it completes with both replies
            }
            l.sent.pollFirst();
            boolean noScript =
                    reply instanceof ErrorReply error && error.message().startsWith("NOSCRIPT");
            if (command != null && link == l) {
                if (noScript && !command.sentAsSource) {
                    retried = true;
                    loaded.clear(); // a flush drops every script, not just this one
                    if (!command.isDone()) { // timed out: never resent, its caller may have compensated
                        retry.addLast(command);
                    }
                } else if (!retry.isEmpty()) {
                    overtaken = new ArrayList<>(retry); // this one ran after them: too late to resend
                    retry.clear();
                }
                if (!retry.isEmpty() || !waiting.isEmpty()) {
                    flush = resendAndSendWaiting(l);
                }
            }
        } finally {
            lock.unlock();
        }
        if (command == null) {
            throw new IOException("Redis sent a reply to no command: " + reply);
        }
        if (!retried) {
            deliver(command, reply);
        }
        if (overtaken != null) {
            RuntimeException failure = Failures.overtaken(maskedUri);
            for (EvalCommand c : overtaken) {
                c.completeExceptionally(failure);
            }
        }
        if (flush) {
            // The reader must never block on a socket write, so another thread flushes; the
            // order is already fixed in the output buffer.
            ForkJoinPool.commonPool().execute(this::flush);
        }
    }

    /**
     * Once every command sent before the retries has answered, resends them with their source, then
     * sends what waited as far as it may go; returns true if the caller must flush. Lock held.
     */
    private boolean resendAndSendWaiting(Link<EvalCommand> l) {
        boolean flush = false;
        if (!retry.isEmpty() && l.sent.isEmpty()) {
            for (EvalCommand command = retry.pollFirst(); command != null; command = retry.pollFirst()) {
                if (!command.isDone()) {
                    flush |= enqueue(command, true);
                }
            }
        }
        return flush | sendWaiting();
    }

    /**
     * Sends the waiting commands in order unless retries are still pending. Commands that timed out
     * while waiting are dropped, never sent. Returns true if the caller must flush. Lock held.
     */
    private boolean sendWaiting() {
        boolean flush = false;
        while (retry.isEmpty()) {
            EvalCommand command = waiting.peekFirst();
            if (command == null) {
                break;
            }
            if (!command.isDone()) {
                flush |= enqueue(command, !loaded.contains(command.script.script.sha1()));
            }
            waiting.pollFirst();
        }
        return flush;
    }

    private void deliver(EvalCommand command, Object reply) {
        if (reply instanceof ErrorReply error) {
            command.completeExceptionally(Failures.reply(maskedUri, error.message()));
        } else {
            command.complete(reply);
        }
    }

    /** Everything sent on the lost link fails, and so do its retries; waiting commands go on the next. */
    @Override
    List<EvalCommand> onLost(List<EvalCommand> sent, boolean wasLive, Throwable cause) {
        if (wasLive) {
            sent.addAll(retry); // answered on this link
            retry.clear();
        }
        return sent;
    }

    @Override
    void settleLost(List<EvalCommand> failed, Throwable cause) {
        if (!failed.isEmpty()) {
            RuntimeException failure = closed ? Failures.closed(maskedUri) : Failures.lost(maskedUri, cause);
            for (EvalCommand command : failed) {
                command.completeExceptionally(failure);
            }
        }
    }

    @Override
    List<ArrayDeque<EvalCommand>> unsent() {
        return unsent;
    }

    @Override
    void unlinked() {
        output.reset(); // bytes for a link that is gone
    }
}
