package dev.dlock.lettuce;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The pub/sub side of a transport, as the SPI's {@code subscribe}, {@code unsubscribe} and {@code
 * onMessage} describe it: classic ({@link SharedPubSub}) or sharded ({@link ShardedPubSub}).
 * Implementations are thread-safe.
 */
interface PubSub {
    /** Subscribes; the future completes once Redis confirmed, or fails within the command timeout. */
    CompletableFuture<Void> subscribe(String channel);

    /** Unsubscribes; the future completes once Redis confirmed. */
    CompletableFuture<Void> unsubscribe(String channel);

    /** Sets the one listener of every message; it runs on an I/O thread. */
    void onMessage(BiConsumer<String, String> listener);

    /** Closes the connection(s); idempotent. */
    void close();
}
