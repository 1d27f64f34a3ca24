package dev.dlock.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The Redis operations dlock needs. Every future completes within the command timeout: normally, or
 * exceptionally with a {@link dev.dlock.LockConnectionException} (unreachable, timed out, closed) or
 * a {@link RedisReplyException} (an error reply).
 *
 * <p>Implementations must be thread-safe, must not block the calling thread in any method but
 * {@link #close()}, and keep commands issued by one thread in order.
 */
public interface Transport extends AutoCloseable {

    /**
     * Runs a script by its SHA-1 ({@code EVALSHA}), sending the source ({@code EVAL}) when the server
     * does not know it, as after a restart.
     *
     * @param script the script
     * @param keys its KEYS; the caller does not change the array afterwards, so the transport may
     *     keep it without a copy until the future completes (to resend it after {@code NOSCRIPT} or a
     *     reconnect); the transport never changes it
     * @param args its ARGV, under the same rule as {@code keys}
     * @return a future of the reply, shaped as {@link Script#reply()} says; nil becomes {@code null}
     */
    CompletableFuture<Object> eval(Script script, String[] keys, String[] args);

    /**
     * Subscribes the shared pub/sub connection to a channel; the future completes once Redis
     * confirmed the subscription, so that no later message can be missed. Subscriptions are
     * restored after a reconnect.
     *
     * @param channel the channel
     * @return a future that completes when the subscription is in place
     */
    CompletableFuture<Void> subscribe(String channel);

    /**
     * Unsubscribes the shared pub/sub connection from a channel.
     *
     * @param channel the channel
     * @return a future that completes when Redis confirmed
     */
    CompletableFuture<Void> unsubscribe(String channel);

    /**
     * Sets the one listener that receives every message of every subscribed channel. It runs on an
     * I/O thread and must not block.
     *
     * @param listener receives channel and message
     */
    void onMessage(BiConsumer<String, String> listener);

    /**
     * Returns the hash slot of a key, so that batches can be grouped by slot; 0 on a server that is
     * not a cluster.
     *
     * @param key the key
     * @return the slot
     */
    default int slot(String key) {
        return 0;
    }

    /** Closes the connections and releases threads; idempotent. */
    @Override
    void close();
}
