package dev.dlock.sim;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The command side of a {@link SimTransport}: its scripts, on a command connection that can be lost ({@link
 * ReconnectingLink}), as dlock-resp's {@code CommandChannel} or (built {@code lettuce}) dlock-lettuce's {@code
 * ScriptQueue} over Lettuce's auto-reconnect sends them.
 *
 * <p>A script goes as source ({@code EVAL}) on its first use and by SHA-1 ({@code EVALSHA}) after that: as dlock-resp,
 * first use on each connection (a new one knows no script, so after a restart the first call goes as source and runs
 * even if its reply is never heard); as Lettuce, first use since the last {@code NOSCRIPT} (its reconnects are not
 * told to the script queue, so after a restart a call goes by SHA and meets {@code NOSCRIPT}). The order across
 * {@code NOSCRIPT} is the real transports' (see {@link #replied}). As dlock-resp, a resend waits for the replies of
 * every call sent behind it on its connection, those timed out included: a reply the network loses (over TCP a reply
 * is never lost alone) holds it back until the connection is lost, as a missing reply would hold dlock-resp's queue.
 */
final class SimCommands {
    private final SimRedis server;
    private final SimNetwork network;
    private final EventLoop loop; // for command timeouts; null: none
    private final long timeoutNanos;
    private final String uri;
    private final boolean lettuce;
    private final ReconnectingLink commandLink;
    private final Set<Send> sent = new LinkedHashSet<>(); // on the command connection, unanswered; guarded by this
    private final ArrayDeque<Send> unsent = new ArrayDeque<>(); // for a command connection; guarded by this
    // The order across NOSCRIPT (see replied), guarded by this: the scripts sent with their source (as dlock-resp:
    // on the current connection; as Lettuce: since the last NOSCRIPT); the sends answered NOSCRIPT, to resend; the
    // calls issued behind them; and the sends not yet answered (as dlock-resp: on the current connection, whose
    // number is connection; as Lettuce: handed to it).
    private final Set<String> loaded = new HashSet<>();
    private final ArrayDeque<Send> retry = new ArrayDeque<>();
    private final ArrayDeque<Send> waiting = new ArrayDeque<>();
    private int inFlight;
    private long connection;
    private volatile boolean closed;
    private SimTransport.Tap tap;
    private final CommandServer serverSide; // what the server does with what this client sends

    /**
     * A script call: sent, answered, or lost with its connection; with {@code ack}, followed by its {@code WAIT} on
     * the same connection ({@link SimTransport#evalReplicated}).
     */
    private record Call(
            Script script,
            String[] keys,
            String[] args,
            long issued,
            CompletableFuture<Object> future,
            ReplicaAck ack) {}

    /** One sending of a call: its first, or its resend with the source after NOSCRIPT. Guarded by the {@code SimCommands}. */
    private static final class Send {
        final Call call;
        boolean asSource;
        long connection; // as dlock-resp: the connection it went on
        boolean answered; // as Lettuce: its reply or its timeout came
        boolean again; // as Lettuce: sent again on a new connection after its own was lost
        EventLoop.Event expiry; // as Lettuce: its timeout

        Send(Call call) {
            this.call = call;
        }

        Send again() {
            return new Send(call);
        }
    }

    SimCommands(SimRedis server, SimNetwork network, EventLoop loop, long timeoutNanos, String uri, boolean lettuce) {
        this.server = server;
        this.network = network;
        this.loop = loop;
        this.timeoutNanos = timeoutNanos;
        this.uri = uri;
        this.lettuce = lettuce;
        this.serverSide = new CommandServer(server, network, loop);
        this.commandLink = new ReconnectingLink(SimNetwork.Link.COMMANDS, network, loop, uri, lettuce);
        commandLink.owner(new ReconnectingLink.Owner() {
            @Override
            public void connected() {
                sendWaiting();
            }

            @Override
            public void failWaiting(long issuedBy, LockConnectionException failure) {
                failWaitingCalls(issuedBy, failure);
            }
        });
    }

    /** Sets the one {@link SimTransport.Tap}. */
    void tap(SimTransport.Tap tap) {
        this.tap = tap;
        serverSide.tap(tap);
    }

    /**
     * Runs a script on the server: sent now, or behind what must run first; the future is completed with its reply.
     *
     * @return {@code future}
     */
    CompletableFuture<Object> eval(
            Script script, String[] keys, String[] args, long issued, CompletableFuture<Object> future) {
        return eval(script, keys, args, issued, future, null);
    }

    /**
     * Runs a script as {@link #eval(Script, String[], String[], long, CompletableFuture)} does, with {@code ack}
     * followed by its {@code WAIT} on the same connection: the future is completed with a {@link Replicated} (or the
     * script's error) when the {@code WAIT} answers.
     *
     * @return {@code future}
     */
    CompletableFuture<Object> eval(
            Script script,
            String[] keys,
            String[] args,
            long issued,
            CompletableFuture<Object> future,
            ReplicaAck ack) {
        Call call = new Call(script, keys, args, issued, future, ack);
        Send send = new Send(call);
        boolean direct;
        boolean connect = false;
        synchronized (this) {
            if (!retry.isEmpty() || !waiting.isEmpty()) {
                waiting.addLast(send); // behind a resend after NOSCRIPT (as Lettuce: not yet handed to it)
                direct = false;
            } else if (lettuce) {
                direct = dispatch(send, !loaded.contains(script.sha1()));
                connect = !direct;
            } else if (commandLink.isUp()) {
                direct = true;
                transmit(send, !loaded.contains(script.sha1()));
            } else {
                unsent.addLast(send);
                direct = false;
                connect = true;
            }
        }
        call.future.whenComplete((v, e) -> forget(send));
        if (direct) {
            wire(send);
            if (tap != null && loop != null && tap.cutAfter(script)) {
                loop.after(
                        0,
                        () -> { // before it arrives (no delay is shorter than 50 µs), not within this call
                            network.close(SimNetwork.Link.COMMANDS);
                            lost("connection reset");
                        });
            }
        } else if (connect) {
            commandLink.needed();
        }
        return call.future;
    }

    private synchronized void forget(Send send) {
        sent.remove(send);
    }

    /**
     * As Lettuce: hands a send to the connection (Lettuce's auto-reconnect buffers it while down), bounded by its own
     * timeout from now, and returns whether it goes on the wire now. Lock held.
     */
    private boolean dispatch(Send send, boolean asSource) {
        send.asSource = asSource;
        if (asSource) {
            loaded.add(send.call.script.sha1());
        }
        inFlight++;
        if (loop != null) {
            send.expiry = loop.after(timeoutNanos + ackNanos(send.call), () -> timedOut(send));
        }
        if (commandLink.isUp()) {
            sent.add(send);
            return true;
        }
        unsent.addLast(send);
        return false;
    }

    /** As dlock-resp: puts a send on the current connection's FIFO; the caller then {@link #wire}s it. Lock held. */
    private void transmit(Send send, boolean asSource) {
        send.asSource = asSource;
        if (asSource) {
            loaded.add(send.call.script.sha1());
        }
        send.connection = connection;
        inFlight++;
        sent.add(send);
    }

    /** Sends one command on the command link: its reply comes back to {@link #replied}. */
    private void wire(Send send) {
        boolean asSource = send.asSource;
        long on = send.connection;
        Call call = send.call;
        network.toServer(
                SimNetwork.Link.COMMANDS,
                () -> serverSide.arrived(
                        call.script,
                        call.keys,
                        call.args,
                        asSource,
                        call.ack,
                        (wipes, answer) -> replied(send, on, asSource, wipes, answer)));
    }

    /** How much longer than a plain call a call may take: its {@code WAIT}'s timeout. */
    private static long ackNanos(Call call) {
        return call.ack == null ? 0 : call.ack.timeout().toNanos();
    }

    /** As Lettuce: a command not answered within its timeout is answered with the timeout, which may have run. */
    private void timedOut(Send send) {
        replied(
                send,
                send.connection,
                send.asSource,
                -1,
                new LockConnectionException(
                        uri, "Redis did not answer in time (" + Duration.ofNanos(timeoutNanos) + ")", null));
    }

    /**
     * A reply (or, as Lettuce, a timeout) to a send: delivered, or kept to be resent with its source after NOSCRIPT,
     * as dlock-resp's {@code CommandChannel} and dlock-lettuce's {@code ScriptQueue} do. A call answered NOSCRIPT did
     * not run, but those sent behind it may have: it waits in {@code retry}, newer calls wait behind it, and once
     * every call sent before the resend has answered without running the retries go again with their source, in
     * order, ahead of what waited; if one of those later calls ran (its source sent on first use, or by SHA with the
     * script loaded again in between by another client), or (as Lettuce) timed out, the retries fail with a {@link
     * LockConnectionException} instead, outcome unknown, so that nothing runs out of its order.
     */
    private void replied(Send send, long on, boolean asSource, long wipes, Object answer) {
        boolean noScript =
                answer instanceof RedisReplyException e && e.getMessage().startsWith("NOSCRIPT");
        boolean retried = false;
        List<Send> overtaken = List.of();
        List<Send> out = new ArrayList<>();
        boolean connect = false;
        synchronized (this) {
            if (closed || (lettuce ? send.answered : on != connection)) {
                return; // Lettuce timed it out already, or a reply of a connection that is gone
            }
            send.answered = true;
            if (send.expiry != null) {
                send.expiry.cancel();
            }
            inFlight--;
            sent.remove(send);
            if (noScript && !asSource) {
                retried = true;
                loaded.clear(); // a flush drops every script, not just this one
                if (!send.call.future.isDone()) { // timed out: never resent, its caller may have compensated
                    retry.addLast(send);
                }
            } else if (!retry.isEmpty()) {
                overtaken = new ArrayList<>(retry); // this one ran (or may have) after them: too late to resend
                retry.clear();
            }
            if (!retry.isEmpty() && inFlight == 0) {
                for (Send again = retry.pollFirst(); again != null; again = retry.pollFirst()) {
                    if (!again.call.future.isDone()) {
                        Send resend = again.again();
                        if (!lettuce) {
                            transmit(resend, true);
                            out.add(resend);
                        } else if (dispatch(resend, true)) {
                            out.add(resend);
                        } else {
                            connect = true;
                        }
                    }
                }
            }
            while (retry.isEmpty() && !waiting.isEmpty()) {
                Send next = waiting.pollFirst();
                if (!next.call.future.isDone()) {
                    boolean source = !loaded.contains(next.call.script.sha1());
                    if (lettuce) {
                        if (dispatch(next, source)) {
                            out.add(next);
                        } else {
                            connect = true;
                        }
                    } else {
                        transmit(next, source);
                        out.add(next);
                    }
                }
            }
        }
        out.forEach(this::wire);
        if (connect) {
            commandLink.needed();
        }
        if (!retried) {
            if (answer instanceof RuntimeException e) {
                send.call.future.completeExceptionally(e);
            } else if (send.again && send.call.ack != null) {
                // as dlock-lettuce: the pair went out again on a new connection, whose WAIT proves nothing of the
                // script's first run
                send.call.future.completeExceptionally(new LockConnectionException(
                        uri,
                        "replica acknowledgement not proven: the connection was lost before the replicas'"
                                + " acknowledgement arrived",
                        null));
            } else {
                if (tap != null && !send.call.future.isDone()) {
                    Call call = send.call;
                    Object script = answer instanceof Replicated r ? r.reply() : answer;
                    tap.answered(call.script, call.keys, call.args, call.issued, wipes, script);
                }
                send.call.future.complete(shaped(answer));
            }
        }
        if (!overtaken.isEmpty()) {
            LockConnectionException failure = new LockConnectionException(
                    uri,
                    "Redis dropped its scripts (NOSCRIPT) and a newer command ran before this one could be resent;"
                            + " not resent, so that commands keep their order",
                    null);
            overtaken.forEach(s -> s.call.future.completeExceptionally(failure));
        }
    }

    /**
     * The command connection is back: what waited for it goes out in the order issued, less what timed out
     * meanwhile; as dlock-resp, on a connection that knows no script yet.
     */
    private void sendWaiting() {
        List<Send> out = new ArrayList<>();
        synchronized (this) {
            if (!lettuce) {
                connection++;
                inFlight = 0;
                loaded.clear(); // possibly the same server restarted: sources again
            }
            for (Send send : unsent) {
                if (lettuce ? !send.answered : !send.call.future.isDone()) {
                    if (!lettuce) {
                        transmit(send, !loaded.contains(send.call.script.sha1()));
                    } else {
                        sent.add(send);
                    }
                    out.add(send);
                }
            }
            unsent.clear();
            if (!lettuce) { // what waited behind a resend on the lost connection goes out too, as dlock-resp's
                for (Send send : waiting) { // one queue holds both there
                    if (!send.call.future.isDone()) {
                        transmit(send, !loaded.contains(send.call.script.sha1()));
                        out.add(send);
                    }
                }
                waiting.clear();
            }
        }
        out.forEach(this::wire);
    }

    private void failWaitingCalls(long issuedBy, LockConnectionException failure) {
        List<Send> failed = new ArrayList<>();
        synchronized (this) {
            for (Send send = unsent.peekFirst();
                    send != null && send.call.issued <= issuedBy;
                    send = unsent.peekFirst()) {
                failed.add(unsent.pollFirst());
            }
        }
        failed.forEach(send -> send.call.future.completeExceptionally(failure));
    }

    /** The command connection is gone (dropped, or closed by a restart): sort out what was on it, and reconnect. */
    void lost(String why) {
        if (closed || !commandLink.isUp()) {
            return;
        }
        List<Send> failed;
        synchronized (this) {
            failed = new ArrayList<>(sent);
            sent.clear();
            if (lettuce) {
                for (int i = failed.size() - 1; i >= 0; i--) {
                    failed.get(i).again = true;
                    unsent.addFirst(failed.get(i)); // at least once: again, ahead of what was issued since
                }
                failed.clear();
            } else {
                failed.addAll(retry); // answered on this connection: they fail with it, as dlock-resp's
                retry.clear();
                for (int i = waiting.size() - 1; i >= 0; i--) { // behind a resend: they wait for the next one
                    unsent.addFirst(waiting.pollLast());
                }
                connection++;
                inFlight = 0;
            }
        }
        commandLink.lost();
        LockConnectionException failure =
                new LockConnectionException(uri, "lost the connection to Redis: " + why, null);
        failed.forEach(send -> send.call.future.completeExceptionally(failure));
    }

    /** Stops reconnecting; whatever is pending fails with {@code failure}. */
    void close(LockConnectionException failure) {
        closed = true;
        commandLink.close();
        List<Send> sends;
        synchronized (this) {
            sends = new ArrayList<>(retry);
            sends.addAll(waiting);
            sends.addAll(unsent);
            sends.addAll(sent);
            retry.clear();
            waiting.clear();
            unsent.clear();
            sent.clear();
        }
        sends.forEach(send -> send.call.future.completeExceptionally(failure));
    }

    /** Status strings as plain strings, at any depth, as a RESP2 client decodes them. */
    private static Object shaped(Object reply) {
        if (reply instanceof Replicated r) {
            return new Replicated(shaped(r.reply()), r.acknowledged());
        }
        if (reply instanceof StatusReply s) {
            return s.text();
        }
        if (reply instanceof java.util.List<?> list) {
            java.util.List<Object> out = new java.util.ArrayList<>(list.size());
            for (Object o : list) {
                out.add(shaped(o));
            }
            return out;
        }
        return reply;
    }
}
