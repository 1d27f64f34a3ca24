package dev.dlock.lettuce;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * One Lettuce client with a command connection and a lazily opened pub/sub connection. Lettuce
 * reconnects by itself and restores subscriptions. A script is sent as source on its first use and
 * by SHA-1 after that, and as source again after {@code NOSCRIPT} (a restarted or flushed server).
 */
final class LettuceTransport implements Transport {
    private final RedisClient client;
    private final RedisURI uri;
    private final String maskedUri;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> commands;
    private final CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub = new CompletableFuture<>();
    private final AtomicBoolean pubSubOpening = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<String> loaded = ConcurrentHashMap.newKeySet(); // SHA-1s this server has cached
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};

    private LettuceTransport(
            RedisClient client, RedisURI uri, String maskedUri, StatefulRedisConnection<String, String> connection) {
        this.client = client;
        this.uri = uri;
        this.maskedUri = maskedUri;
        this.connection = connection;
        this.commands = connection.async();
    }

    static LettuceTransport connect(TransportConfig config) {
        RedisURI uri;
        try {
            uri = RedisURI.create(config.redisUri());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("redisUri is not a valid Redis URI: " + config.maskedUri(), e);
        }
        uri.setTimeout(config.commandTimeout());
        uri.setClientName(config.clientName());
        RedisClient client = RedisClient.create(uri);
        client.setOptions(ClientOptions.builder()
                .protocolVersion(ProtocolVersion.RESP2)
                .socketOptions(SocketOptions.builder()
                        .connectTimeout(config.commandTimeout())
                        .build())
                .timeoutOptions(TimeoutOptions.enabled(config.commandTimeout()))
                .build());
        try {
            StatefulRedisConnection<String, String> connection;
            try {
                connection = client.connect(StringCodec.UTF8, uri);
            } catch (RedisConnectionException e) {
                if (!closedDuringHandshake(e)) {
                    throw e;
                }
                // Seen under load: the server's refusal of AUTH races with the channel's close, and the
                // reason is lost. A second attempt reports it (or connects, if the close was transient).
                connection = client.connect(StringCodec.UTF8, uri);
            }
            LettuceTransport transport = new LettuceTransport(client, uri, config.maskedUri(), connection);
            connection.sync().ping();
            return transport;
        } catch (RuntimeException e) {
            client.shutdown(0, 1, TimeUnit.SECONDS);
            throw connectFailure(config.maskedUri(), e);
        }
    }

    private static boolean closedDuringHandshake(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("closed prematurely")) {
                return true;
            }
        }
        return false;
    }

    private static RuntimeException connectFailure(String maskedUri, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("NOAUTH")
                    || message.contains("WRONGPASS")
                    || message.contains("invalid password")
                    || message.contains("invalid username-password")) {
                return new LockAuthenticationException(maskedUri, "Redis refused the credentials: " + message, e);
            }
        }
        return new LockConnectionException(maskedUri, "cannot connect to Redis: " + rootMessage(e), e);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] k, String[] a) {
        ScriptOutputType type =
                script.reply() == Script.Reply.INTEGER ? ScriptOutputType.INTEGER : ScriptOutputType.MULTI;
        CompletableFuture<Object> result = new CompletableFuture<>();
        if (!loaded.contains(script.sha1())) {
            // First use on this server: send the source, so that the command works on its own even if
            // its reply is never awaited (a timed-out EVALSHA would never get its EVAL fallback).
            sendSource(script, type, k, a, result);
            return result;
        }
        commands.<Object>evalsha(script.sha1(), type, k, a).whenComplete((reply, error) -> {
            if (error == null) {
                result.complete(reply);
            } else if (isNoScript(error)) {
                loaded.remove(script.sha1()); // the server restarted or flushed its scripts
                sendSource(script, type, k, a, result);
            } else {
                result.completeExceptionally(translate(error));
            }
        });
        return result;
    }

    private void sendSource(
            Script script, ScriptOutputType type, String[] k, String[] a, CompletableFuture<Object> result) {
        commands.<Object>eval(script.source(), type, k, a).whenComplete((reply, error) -> {
            if (error == null) {
                loaded.add(script.sha1());
                result.complete(reply);
            } else {
                result.completeExceptionally(translate(error));
            }
        });
    }

    private static boolean isNoScript(Throwable error) {
        return error instanceof RedisNoScriptException
                || String.valueOf(error.getMessage()).startsWith("NOSCRIPT");
    }

    private RuntimeException translate(Throwable error) {
        while ((error instanceof CompletionException || error instanceof ExecutionException)
                && error.getCause() != null) {
            error = error.getCause();
        }
        if (error instanceof RedisCommandTimeoutException) {
            return new LockConnectionException(maskedUri, "Redis did not answer in time: " + error.getMessage(), error);
        }
        if (error instanceof RedisCommandExecutionException) {
            String message = String.valueOf(error.getMessage());
            if (message.startsWith("NOAUTH") || message.startsWith("WRONGPASS")) {
                return new LockAuthenticationException(maskedUri, "Redis refused the credentials: " + message, error);
            }
            return new RedisReplyException(message, error);
        }
        if (error instanceof RedisConnectionException) {
            return new LockConnectionException(maskedUri, "lost the connection to Redis: " + error.getMessage(), error);
        }
        return new LockConnectionException(maskedUri, "Redis command failed: " + error, error);
    }

    private CompletableFuture<StatefulRedisPubSubConnection<String, String>> pubSub() {
        if (pubSubOpening.compareAndSet(false, true)) {
            // Not on the calling thread, which is often a Netty event loop (a reply callback): building
            // the connection there stalled that loop, and every command on it, for ~0.5 s on first use.
            CompletableFuture.supplyAsync(() -> client.connectPubSubAsync(StringCodec.UTF8, uri))
                    .thenCompose(f -> f.toCompletableFuture())
                    .whenComplete((c, error) -> {
                        if (error != null) {
                            pubSubOpening.set(false);
                            pubSub.completeExceptionally(translate(error));
                            return;
                        }
                        c.addListener(new RedisPubSubAdapter<>() {
                            @Override
                            public void message(String channel, String message) {
                                listener.accept(channel, message);
                            }
                        });
                        pubSub.complete(c);
                    });
        }
        return pubSub;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return pubSub().thenCompose(c -> c.async().subscribe(channel).toCompletableFuture())
                .exceptionally(error -> {
                    throw translate(error);
                });
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return pubSub().thenCompose(c -> c.async().unsubscribe(channel).toCompletableFuture());
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        this.listener = listener;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        connection.close();
        pubSub.thenAccept(StatefulRedisPubSubConnection::close);
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
