package dev.dlock.sim;

import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * The server side of one client's command connections ({@link SimCommands}): runs each script as it arrives and sends
 * its reply back on the connection it came on; runs the {@code WAIT} sent right behind a script for {@link
 * SimTransport#evalReplicated}, which blocks its connection, as Redis blocks a client, until the replica has the
 * connection's last write or the timeout passes; and keeps what arrives on a blocked connection until then. Not
 * thread-safe: the simulation's one thread.
 */
final class CommandServer {
    private final SimRedis server;
    private final SimNetwork network;
    private final EventLoop loop; // for WAIT's timeouts; null: no WAIT
    private SimTransport.Tap tap;
    private Blocked blocked; // the last connection of this client blocked in WAIT, or null
    // per connection of this client, the master's offset after its last command that wrote (Redis's client woff, which
    // WAIT waits for); a connection not here wrote nothing
    private final Map<SimNetwork.ReplyPath, Long> woff = new HashMap<>();

    /** Where a script's answer goes: the client's side, told the server's wipes when it ran. */
    interface Answer {
        void deliver(long wipes, Object answer);
    }

    /**
     * A connection blocked in {@code WAIT}, and what arrived on it meanwhile, which the server runs after the {@code
     * WAIT} answers, in order (or drops, if the connection has closed).
     */
    private static final class Blocked {
        final SimNetwork.ReplyPath path;
        final ArrayDeque<Runnable> behind = new ArrayDeque<>();
        boolean waiting = true;

        Blocked(SimNetwork.ReplyPath path) {
            this.path = path;
        }
    }

    CommandServer(SimRedis server, SimNetwork network, EventLoop loop) {
        this.server = server;
        this.network = network;
        this.loop = loop;
    }

    /** Sets the one {@link SimTransport.Tap}, told of every script as it runs. */
    void tap(SimTransport.Tap tap) {
        this.tap = tap;
    }

    /**
     * A script arrived (its source if {@code asSource}, else its SHA-1), with {@code ack} followed by its {@code
     * WAIT}. On a connection blocked in {@code WAIT} it waits behind it, as Redis holds a blocked client's further
     * commands, and is dropped if the connection closes meanwhile.
     */
    void arrived(Script script, String[] keys, String[] args, boolean asSource, ReplicaAck ack, Answer answer) {
        Blocked b = blocked;
        if (b != null && b.waiting) {
            SimNetwork.ReplyPath path = network.replyPath(SimNetwork.Link.COMMANDS);
            if (b.path.equals(path)) {
                b.behind.addLast(() -> {
                    if (path.open()) {
                        serve(script, keys, args, asSource, ack, answer, path);
                    }
                });
                return;
            }
        }
        serve(script, keys, args, asSource, ack, answer, null);
    }

    /** Runs a script and sends its reply, on {@code path} if given, else on the connection it came on. */
    private void serve(
            Script script,
            String[] keys,
            String[] args,
            boolean asSource,
            ReplicaAck ack,
            Answer answer,
            SimNetwork.ReplyPath path) {
        Object reply;
        long wipes = server.wipes();
        SimReplica replica = server.replica();
        long offset = replica == null ? 0 : replica.shipped();
        try {
            reply = asSource ? server.eval(script.source(), keys, args) : server.evalsha(script.sha1(), keys, args);
        } catch (RedisReplyException e) {
            reply = e;
        }
        if (tap != null) {
            tap.ran(script, keys, reply);
        }
        if (replica != null && replica.shipped() != offset) {
            if (path == null) {
                path = network.replyPath(SimNetwork.Link.COMMANDS);
            }
            if (woff.size() > 4) {
                woff.keySet().removeIf(p -> !p.open());
            }
            woff.put(path, replica.shipped());
        }
        Object ran = reply;
        if (ack != null) {
            waitFor(ack, path != null ? path : network.replyPath(SimNetwork.Link.COMMANDS), ran, wipes, answer);
        } else if (path != null) {
            path.send(() -> answer.deliver(wipes, ran));
        } else {
            network.toClient(SimNetwork.Link.COMMANDS, () -> answer.deliver(wipes, ran));
        }
    }

    /**
     * The {@code WAIT replicas timeout} sent right behind a script on its connection. As Redis's, it waits for the
     * connection's last write (the script's, if it wrote; an earlier one's, if it did not; none on a connection that
     * wrote nothing): it answers once the replica has applied the master's stream up to that offset, at once if it
     * had, or at the timeout with the count that had (0: one replica; never one while no replica is attached); the
     * connection is blocked until then. The pair's one answer, as both transports make it: the script's error if it
     * failed, else a {@link Replicated} of its reply and the count. {@code WAITAOF} is refused as Redis 7.0 refuses an
     * unknown command (the simulated server is 7.0; the transports word it so), at once.
     */
    private void waitFor(ReplicaAck ack, SimNetwork.ReplyPath path, Object reply, long wipes, Answer answer) {
        if (ack.fsync()) {
            Object refused = reply instanceof RedisReplyException
                    ? reply
                    : new RedisReplyException(
                            "ERR replicaAckFsync needs WAITAOF, which Redis has only since 7.2; this server answered:"
                                    + " ERR unknown command 'WAITAOF', with args beginning with: '0' '"
                                    + ack.replicas() + "' '" + ack.timeoutMillis()
                                    + "'  (the script ran; its writes were not confirmed)",
                            null);
            path.send(() -> answer.deliver(wipes, refused));
            return;
        }
        SimReplica replica = server.replica();
        long now = loop.now();
        long applied = replica == null ? Long.MAX_VALUE : replica.appliedAt(woff.getOrDefault(path, 0L));
        long deadline = now + ack.timeout().toNanos();
        int count = applied <= deadline ? 1 : 0;
        Object pair = reply instanceof RedisReplyException ? reply : new Replicated(reply, count);
        long at = Math.min(applied, deadline);
        if (at <= now) {
            path.send(() -> answer.deliver(wipes, pair));
            return;
        }
        Blocked b = new Blocked(path);
        blocked = b;
        loop.after(at - now, () -> {
            b.waiting = false;
            if (path.open()) {
                path.send(() -> answer.deliver(wipes, pair));
            }
            while (!b.behind.isEmpty()) {
                Blocked next = blocked;
                if (next != b && next.waiting && next.path.equals(path)) {
                    next.behind.addAll(b.behind); // blocked again by one of them: the rest wait on
                    b.behind.clear();
                    return;
                }
                b.behind.pollFirst().run();
            }
        });
    }
}
