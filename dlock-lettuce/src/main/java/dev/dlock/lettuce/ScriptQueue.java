package dev.dlock.lettuce;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The order of script calls across {@code NOSCRIPT}, shared by the standalone and the cluster
 * transport. A script is sent as source on its first use and by SHA-1 after that, and as source again
 * after {@code NOSCRIPT} (a restarted, flushed or failed-over server). Which scripts a node knows is
 * kept per node (the scope: each node of a cluster has its own script cache).
 *
 * <p>Calls are handed to the {@link Sender} under {@code order}, so Redis gets them in the order they
 * were issued, and that order must hold when one is resent (dlock undoes a timed-out acquire with a
 * release sent right behind it). An {@code EVALSHA} answered {@code NOSCRIPT} did not run, but the
 * calls pipelined behind it may have. So it goes to {@code retry}, newer calls wait in {@code
 * waiting}, and once every call dispatched before has answered the retries are resent with their
 * source, in order, ahead of what waited; if one of those later calls ran (sent with its source on
 * first use, or by SHA with the script reloaded meanwhile by another client) or timed out, resending
 * would run the retries after it, so they fail instead (outcome unknown, as for a timeout). This
 * class is thread-safe.
 */
final class ScriptQueue {
    /** Hands one call to Lettuce; called with the order lock held, so it must not block. */
    interface Sender {
        /**
         * Sends a call.
         *
         * @param call the call: script, keys, args and, for a replicated call, its {@link ReplicaAck}
         * @param asSource whether to send {@code EVAL} with the source rather than {@code EVALSHA}
         * @return the reply (a {@code Replicated} for a replicated call), or Lettuce's error
         */
        CompletionStage<Object> send(Call call, boolean asSource);
    }

    private final String maskedUri;
    private final Duration timeout;
    private final Sender sender;
    private final Function<Call, String> scope;
    private final ReentrantLock order = new ReentrantLock(); // guards the four below
    private final Set<String> loaded = new HashSet<>(); // scope + SHA-1 of scripts sent with their source
    private final ArrayDeque<Call> waiting = new ArrayDeque<>(); // not yet dispatched, in order
    private final ArrayDeque<Call> retry = new ArrayDeque<>(); // answered NOSCRIPT, to resend
    private int inFlight; // dispatched, not yet answered

    /**
     * A queue.
     *
     * @param scope where a call's script cache is: the node it goes to ({@code ""} for the one server
     *     of a standalone connection), or null when unknown, in which case the call goes with its source
     */
    ScriptQueue(String maskedUri, Duration timeout, Sender sender, Function<Call, String> scope) {
        this.maskedUri = maskedUri;
        this.timeout = timeout;
        this.sender = sender;
        this.scope = scope;
    }

    /** The key of the call's script in {@code loaded}, or null if its node is unknown. Lock held. */
    private String cacheKey(Call call) {
        String node = scope.apply(call);
        return node == null ? null : node + "/" + call.script.sha1();
    }

    private boolean isLoaded(Call call) {
        String key = cacheKey(call);
        return key != null && loaded.contains(key);
    }

    /** Runs a script, replicated when {@code ack} is not null; see the class note for the order. */
    CompletableFuture<Object> eval(Script script, String[] keys, String[] args, ReplicaAck ack) {
        long wait = timeout.toNanos() + (ack == null ? 0 : ack.timeout().toNanos());
        Call call = new Call(script, keys, args, ack, System.nanoTime() + wait);
        CompletionStage<Object> sent = null;
        order.lock();
        try {
            boolean known = isLoaded(call);
            if (!waiting.isEmpty() || !retry.isEmpty()) {
                waiting.addLast(call); // behind a resend; a reply's callback sends it
            } else {
                // First use: the source, so that the command works on its own even if its reply is
                // never awaited (a timed-out EVALSHA would never get its EVAL fallback).
                sent = dispatch(call, !known);
            }
        } finally {
            order.unlock();
        }
        if (sent != null) {
            sent.whenComplete(call);
        } else {
            failAtDeadline(call);
        }
        return call;
    }

    /** Hands a call to Lettuce, whose writes keep this order. Lock held. */
    private CompletionStage<Object> dispatch(Call call, boolean asSource) {
        inFlight++;
        call.sentAsSource = asSource;
        String key = cacheKey(call);
        if (asSource && key != null) {
            loaded.add(key);
        }
        try {
            return sender.send(call, asSource);
        } catch (RuntimeException e) { // e.g. no node serves the slot: an answer like any other
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Lettuce's answer to a call: delivered, or kept to be resent after NOSCRIPT; see the class note. */
    private void answered(Call call, Object reply, Throwable error) {
        boolean retried = false;
        List<Call> overtaken = null;
        List<Call> resent = null;
        List<CompletionStage<Object>> futures = null;
        order.lock();
        try {
            inFlight--;
            if (error != null && !call.sentAsSource && Errors.isNoScript(error)) {
                retried = true;
                loaded.clear(); // a flush drops every script, not just this one
                if (!call.isDone()) { // timed out: never resent, its caller may have compensated
                    retry.addLast(call);
                }
            } else if (!retry.isEmpty()) {
                overtaken = new ArrayList<>(retry); // this one ran (or may have) after them: too late to resend
                retry.clear();
            }
            if (!retry.isEmpty() || !waiting.isEmpty()) {
                resent = new ArrayList<>();
                futures = new ArrayList<>();
                resendAndSendWaiting(resent, futures);
            }
        } finally {
            order.unlock();
        }
        if (retried && !call.isDone()) {
            failAtDeadline(call);
        }
        if (resent != null) {
            for (int i = 0; i < resent.size(); i++) {
                futures.get(i).whenComplete(resent.get(i));
            }
        }
        if (!retried) {
            if (error == null) {
                call.complete(reply);
            } else {
                call.completeExceptionally(Errors.translate(maskedUri, error));
            }
        }
        if (overtaken != null) {
            LockConnectionException failure = new LockConnectionException(
                    maskedUri,
                    "Redis dropped its scripts (NOSCRIPT) and a newer command ran before this one could be resent;"
                            + " not resent, so that commands keep their order",
                    null);
            for (Call c : overtaken) {
                c.completeExceptionally(failure);
            }
        }
    }

    /**
     * Once every call dispatched before the retries has answered, resends them with their source,
     * then sends what waited. Calls that timed out meanwhile are dropped, never sent. Lock held.
     */
    private void resendAndSendWaiting(List<Call> sent, List<CompletionStage<Object>> futures) {
        if (!retry.isEmpty() && inFlight == 0) {
            for (Call call = retry.pollFirst(); call != null; call = retry.pollFirst()) {
                if (!call.isDone()) {
                    sent.add(call);
                    futures.add(dispatch(call, true));
                }
            }
        }
        while (retry.isEmpty()) {
            Call call = waiting.peekFirst();
            if (call == null) {
                break;
            }
            if (!call.isDone()) {
                sent.add(call);
                futures.add(dispatch(call, !isLoaded(call)));
            }
            waiting.pollFirst();
        }
    }

    /** Bounds a call that waits here rather than in Lettuce by its deadline. */
    private void failAtDeadline(Call call) {
        long left = Math.max(0, call.deadline - System.nanoTime());
        CompletableFuture.delayedExecutor(left, TimeUnit.NANOSECONDS)
                .execute(() -> call.completeExceptionally(new LockConnectionException(
                        maskedUri, "Redis did not answer in time (" + timeout + ")", null)));
    }

    /** Fails every call not yet handed to Lettuce; the transport is closing. */
    void close() {
        List<Call> unsent;
        order.lock();
        try {
            unsent = new ArrayList<>(retry);
            unsent.addAll(waiting);
            retry.clear();
            waiting.clear();
        } finally {
            order.unlock();
        }
        LockConnectionException failure =
                new LockConnectionException(maskedUri, "the dlock transport was closed", null);
        for (Call call : unsent) {
            call.completeExceptionally(failure);
        }
    }

    /** One script call: the caller's future, what it takes to resend it, and Lettuce's callback. */
    final class Call extends CompletableFuture<Object> implements BiConsumer<Object, Throwable> {
        final Script script;
        final String[] keys;
        final String[] args;
        final ReplicaAck ack; // null: not replicated
        final long deadline;
        boolean sentAsSource; // guarded by order

        Call(Script script, String[] keys, String[] args, ReplicaAck ack, long deadline) {
            this.script = script;
            this.keys = keys;
            this.args = args;
            this.ack = ack;
            this.deadline = deadline;
        }

        @Override
        public void accept(Object reply, Throwable error) {
            answered(this, reply, error);
        }
    }
}
