package dev.dlock.lettuce;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Classic pub/sub ({@code SUBSCRIBE}): the one pub/sub connection of a transport, opened on first use; Lettuce restores its subscriptions
 * after a reconnect. An opening that fails (the server down, a failover under way) fails the calls
 * waiting for it, and the next call opens again: kept, the failure would fail every later subscribe
 * of the transport. This class is thread-safe.
 */
final class SharedPubSub implements PubSub {
    private final String maskedUri;
    private final Supplier<CompletionStage<? extends StatefulRedisPubSubConnection<String, String>>> opener;
    private final AtomicReference<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connection =
            new AtomicReference<>();
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};

    SharedPubSub(
            String maskedUri,
            Supplier<CompletionStage<? extends StatefulRedisPubSubConnection<String, String>>> opener) {
        this.maskedUri = maskedUri;
        this.opener = opener;
    }

    private CompletableFuture<StatefulRedisPubSubConnection<String, String>> connection() {
        CompletableFuture<StatefulRedisPubSubConnection<String, String>> current = connection.get();
        if (current != null) {
            return current;
        }
        CompletableFuture<StatefulRedisPubSubConnection<String, String>> opening = new CompletableFuture<>();
        if (!connection.compareAndSet(null, opening)) {
            return connection.get();
        }
        // Not on the calling thread, which is often a Netty event loop (a reply callback): building
        // the connection there stalled that loop, and every command on it, for ~0.5 s on first use.
        CompletableFuture.supplyAsync(opener).thenCompose(f -> f).whenComplete((c, error) -> {
            if (error != null) {
                connection.compareAndSet(opening, null); // the next call opens again
                opening.completeExceptionally(Errors.translate(maskedUri, error));
                return;
            }
            c.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    listener.accept(channel, message);
                }
            });
            opening.complete(c);
        });
        return opening;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return connection()
                .thenCompose(c -> c.async().subscribe(channel).toCompletableFuture())
                .exceptionally(error -> {
                    throw Errors.translate(maskedUri, error);
                });
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return connection().thenCompose(c -> c.async().unsubscribe(channel).toCompletableFuture());
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public void close() {
        CompletableFuture<StatefulRedisPubSubConnection<String, String>> current = connection.get();
        if (current != null) {
            current.thenAccept(StatefulRedisPubSubConnection::close);
        }
    }
}
