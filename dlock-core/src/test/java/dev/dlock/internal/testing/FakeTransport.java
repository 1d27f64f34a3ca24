package dev.dlock.internal.testing;

import dev.dlock.internal.script.Scripts;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/** A transport whose replies and messages the test hands out, one by one. */
public final class FakeTransport implements Transport {
    /** One script call, waiting for the test's reply. */
    public record Call(
            Script script, String[] keys, String[] args, CompletableFuture<Object> reply, boolean replicated) {}

    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    /** The channels subscribed and unsubscribed, in order. */
    public final List<String> subscribed = new CopyOnWriteArrayList<>();

    public final List<String> unsubscribed = new CopyOnWriteArrayList<>();
    private volatile BiConsumer<String, String> listener = (c, m) -> {};
    private volatile boolean answerAll;
    /** Every script call the client made, answered or not (the connect-time policy check aside). */
    public final AtomicInteger evals = new AtomicInteger();

    /** From now on every call, pending or new, is answered 0 ("not yours", "busy"), as for a close. */
    public void answerEverything() {
        answerAll = true;
        for (Call call; (call = calls.poll()) != null; ) {
            call.reply().complete(0L);
        }
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        if (script != Scripts.SERVER_POLICY) {
            evals.incrementAndGet();
        }
        if (answerAll) {
            return CompletableFuture.completedFuture(0L);
        }
        if (script == Scripts.SERVER_POLICY) { // the client's check at connect: not the test's business
            return CompletableFuture.completedFuture(List.of("noeviction", 0L));
        }
        CompletableFuture<Object> reply = new CompletableFuture<>();
        calls.add(new Call(script, keys.clone(), args.clone(), reply, false));
        return reply;
    }

    /** Whether it claims to wait for replicas; a call through evalReplicated is answered with a {@link Replicated}. */
    public volatile boolean waitsForReplicas;

    @Override
    public boolean waitsForReplicas() {
        return waitsForReplicas;
    }

    @Override
    public CompletableFuture<Replicated> evalReplicated(Script script, String[] keys, String[] args, ReplicaAck ack) {
        evals.incrementAndGet();
        if (answerAll) {
            return CompletableFuture.completedFuture(new Replicated(0L, 0));
        }
        CompletableFuture<Object> reply = new CompletableFuture<>();
        calls.add(new Call(script, keys.clone(), args.clone(), reply, true));
        // answerEverything() completes with a bare 0: no replica acknowledged it
        return reply.thenApply(o -> o instanceof Replicated r ? r : new Replicated(o, 0));
    }

    /** The next call the client made, within 5 s. */
    public Call next() throws InterruptedException {
        Call call = calls.poll(5, TimeUnit.SECONDS);
        if (call == null) {
            throw new AssertionError("the client sent no script call within 5 s");
        }
        return call;
    }

    /** The next call if one is sent within {@code millis}, else null. */
    public Call poll(long millis) throws InterruptedException {
        return calls.poll(millis, TimeUnit.MILLISECONDS);
    }

    public void publish(String channel, String message) {
        listener.accept(channel, message);
    }

    private volatile RuntimeException subscribeFailure;

    private volatile boolean holdSubscribes;

    /** From now on subscribes are never confirmed (a transport that breaks the SPI's promise). */
    public void holdSubscribes() {
        holdSubscribes = true;
    }

    /** The next subscribe fails with {@code failure} (as a refused or timed-out SUBSCRIBE). */
    public void failNextSubscribe(RuntimeException failure) {
        subscribeFailure = failure;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        subscribed.add(channel);
        if (holdSubscribes) {
            return new CompletableFuture<>();
        }
        RuntimeException failure = subscribeFailure;
        if (failure != null) {
            subscribeFailure = null;
            return CompletableFuture.failedFuture(failure);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        unsubscribed.add(channel);
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public void close() {}
}
