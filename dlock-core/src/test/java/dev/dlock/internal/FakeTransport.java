package dev.dlock.internal;

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
final class FakeTransport implements Transport {
    /** One script call, waiting for the test's reply. */
    record Call(Script script, String[] keys, String[] args, CompletableFuture<Object> reply) {}

    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    /** The channels subscribed and unsubscribed, in order. */
    final List<String> subscribed = new CopyOnWriteArrayList<>();

    final List<String> unsubscribed = new CopyOnWriteArrayList<>();
    private volatile BiConsumer<String, String> listener = (c, m) -> {};
    private volatile boolean answerAll;
    /** Every script call the client made, answered or not (the connect-time policy check aside). */
    final AtomicInteger evals = new AtomicInteger();

    /** From now on every call, pending or new, is answered 0 ("not yours", "busy"), as for a close. */
    void answerEverything() {
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
        calls.add(new Call(script, keys.clone(), args.clone(), reply));
        return reply;
    }

    /** The next call the client made, within 5 s. */
    Call next() throws InterruptedException {
        Call call = calls.poll(5, TimeUnit.SECONDS);
        if (call == null) {
            throw new AssertionError("the client sent no script call within 5 s");
        }
        return call;
    }

    /** The next call if one is sent within {@code millis}, else null. */
    Call poll(long millis) throws InterruptedException {
        return calls.poll(millis, TimeUnit.MILLISECONDS);
    }

    void publish(String channel, String message) {
        listener.accept(channel, message);
    }

    private volatile RuntimeException subscribeFailure;

    /** The next subscribe fails with {@code failure} (as a refused or timed-out SUBSCRIBE). */
    void failNextSubscribe(RuntimeException failure) {
        subscribeFailure = failure;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        subscribed.add(channel);
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
