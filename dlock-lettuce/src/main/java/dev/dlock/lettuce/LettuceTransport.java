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
import io.lettuce.core.RedisFuture;
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
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * One Lettuce client with a command connection and a lazily opened pub/sub connection. Lettuce
 * reconnects by itself and restores subscriptions. A script is sent as source on its first use and
 * by SHA-1 after that, and as source again after {@code NOSCRIPT} (a restarted or flushed server).
 *
 * <p>Order across {@code NOSCRIPT}: calls are handed to Lettuce under {@code order}, so Redis gets
 * them in the order they were issued, and that order must hold when one is resent (dlock undoes a
 * timed-out acquire with a release sent right behind it). An {@code EVALSHA} answered {@code
 * NOSCRIPT} did not run, but the calls pipelined behind it may have. So it goes to {@code retry},
 * newer calls wait in {@code waiting}, and once every call dispatched before has answered the
 * retries are resent with their source, in order, ahead of what waited; if one of those later calls
 * ran (sent with its source on first use, or by SHA with the script reloaded meanwhile by another
 * client) or timed out, resending would run the retries after it, so they fail instead (outcome
 * unknown, as for a timeout). This class is thread-safe.
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
    private final Duration timeout;
    private final long timeoutNanos;
    private final ReentrantLock order = new ReentrantLock(); // guards the four below
    private final Set<String> loaded = new HashSet<>(); // SHA-1s sent with their source
    private final ArrayDeque<Call> waiting = new ArrayDeque<>(); // not yet dispatched, in order
    private final ArrayDeque<Call> retry = new ArrayDeque<>(); // answered NOSCRIPT, to resend
    private int inFlight; // dispatched, not yet answered
    private volatile BiConsumer<String, String> listener = (channel, message) -> {};

    private LettuceTransport(
            RedisClient client,
            RedisURI uri,
            String maskedUri,
            Duration timeout,
            StatefulRedisConnection<String, String> connection) {
        this.client = client;
        this.timeout = timeout;
        this.timeoutNanos = timeout.toNanos();
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
            LettuceTransport transport =
                    new LettuceTransport(client, uri, config.maskedUri(), config.commandTimeout(), connection);
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
        Call call = new Call(script, type, k, a, System.nanoTime() + timeoutNanos);
        RedisFuture<Object> sent = null;
        order.lock();
        try {
            boolean known = loaded.contains(script.sha1());
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
    private RedisFuture<Object> dispatch(Call call, boolean asSource) {
        call.sentAsSource = asSource;
        inFlight++;
        if (asSource) {
            loaded.add(call.script.sha1());
            return commands.eval(call.script.source(), call.type, call.keys, call.args);
        }
        return commands.evalsha(call.script.sha1(), call.type, call.keys, call.args);
    }

    /** Lettuce's answer to a call: delivered, or kept to be resent after NOSCRIPT; see the class note. */
    private void answered(Call call, Object reply, Throwable error) {
        boolean retried = false;
        List<Call> overtaken = null;
        List<Call> resent = null;
        List<RedisFuture<Object>> futures = null;
        order.lock();
        try {
            inFlight--;
            if (error != null && !call.sentAsSource && isNoScript(error)) {
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
                call.completeExceptionally(translate(error));
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
    private void resendAndSendWaiting(List<Call> sent, List<RedisFuture<Object>> futures) {
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
                futures.add(dispatch(call, !loaded.contains(call.script.sha1())));
            }
            waiting.pollFirst();
        }
    }

    /** Bounds a call that waits here rather than in Lettuce by the command timeout. */
    private void failAtDeadline(Call call) {
        long left = Math.max(0, call.deadline - System.nanoTime());
        CompletableFuture.delayedExecutor(left, TimeUnit.NANOSECONDS)
                .execute(() -> call.completeExceptionally(new LockConnectionException(
                        maskedUri, "Redis did not answer in time (" + timeout + ")", null)));
    }

    /** One script call: the caller's future, what it takes to resend it, and Lettuce's callback. */
    private final class Call extends CompletableFuture<Object> implements BiConsumer<Object, Throwable> {
        final Script script;
        final ScriptOutputType type;
        final String[] keys;
        final String[] args;
        final long deadline;
        boolean sentAsSource; // guarded by order

        Call(Script script, ScriptOutputType type, String[] keys, String[] args, long deadline) {
            this.script = script;
            this.type = type;
            this.keys = keys;
            this.args = args;
            this.deadline = deadline;
        }

        @Override
        public void accept(Object reply, Throwable error) {
            answered(this, reply, error);
        }
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
        connection.close();
        pubSub.thenAccept(StatefulRedisPubSubConnection::close);
        client.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
