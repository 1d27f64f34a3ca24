package dev.dlock.lettuce;

import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.resource.ClientResources;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * What the standalone/Sentinel and the cluster transport share: a {@link ScriptQueue} whose sender
 * each defines, the {@link PubSub} it chose, and closing. Thread-safe.
 */
abstract class LettuceBase implements Transport {
    private final ClientResources resources;
    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final ScriptQueue scripts;
    private final PubSub pubSub;
    private final AtomicBoolean closed = new AtomicBoolean();
    final String maskedUri;
    final long timeoutNanos;

    LettuceBase(
            ClientResources resources,
            AbstractRedisClient client,
            StatefulConnection<String, String> connection,
            TransportConfig config,
            PubSub pubSub) {
        this.resources = resources;
        this.client = client;
        this.connection = connection;
        this.maskedUri = config.maskedUri();
        this.timeoutNanos = config.commandTimeout().toNanos();
        this.scripts = new ScriptQueue(maskedUri, config.commandTimeout(), this::send, this::scriptScope);
        this.pubSub = pubSub;
    }

    /** Stops a client whose connect failed, and its resources. */
    static void shutdown(AbstractRedisClient client, ClientResources resources) {
        client.shutdown(0, 1, TimeUnit.SECONDS);
        resources.shutdown(0, 1, TimeUnit.SECONDS);
    }

    /**
     * Hands one call to Lettuce (the {@link ScriptQueue}'s sender; the order lock is held).
     *
     * @param call the call, replicated when its {@code ack} is set
     * @param asSource {@code EVAL} with the source rather than {@code EVALSHA}
     * @return the reply
     */
    abstract CompletionStage<Object> send(ScriptQueue.Call call, boolean asSource);

    /**
     * Where the call's script cache is (see {@link ScriptQueue}); the one server by default.
     *
     * @param call the call
     * @return the node's identity, or null if unknown (the script then goes with its source)
     */
    String scriptScope(ScriptQueue.Call call) {
        return "";
    }

    /** Whether {@link #close()} was called. */
    final boolean isClosed() {
        return closed.get();
    }

    @Override
    public final CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        return scripts.eval(script, keys, args, null);
    }

    @Override
    public final boolean waitsForReplicas() {
        return true;
    }

    @Override
    public CompletableFuture<Replicated> evalReplicated(Script script, String[] keys, String[] args, ReplicaAck ack) {
        return scripts.eval(script, keys, args, ack).thenApply(Replicated.class::cast);
    }

    @Override
    public final CompletableFuture<Void> subscribe(String channel) {
        return pubSub.subscribe(channel);
    }

    @Override
    public final CompletableFuture<Void> unsubscribe(String channel) {
        return pubSub.unsubscribe(channel);
    }

    @Override
    public final void onMessage(BiConsumer<String, String> listener) {
        pubSub.onMessage(listener);
    }

    @Override
    public final void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        scripts.close();
        connection.close();
        pubSub.close();
        client.shutdown(0, 2, TimeUnit.SECONDS);
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
