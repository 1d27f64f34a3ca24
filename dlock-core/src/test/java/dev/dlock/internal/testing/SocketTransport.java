package dev.dlock.internal.testing;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.RedisErrorReply;
import dev.dlock.testkit.RespConnection;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiConsumer;

/**
 * A minimal script-only transport for dlock-core's own integration tests (the real transports live in
 * modules that depend on core): one blocking {@link RespConnection} per transport, used by one thread
 * so commands keep their order; {@code EVALSHA} with an {@code EVAL} fallback after {@code NOSCRIPT};
 * the command timeout as the socket timeout; a broken connection is dropped and the next command opens
 * a new one, and a command that finds its idle connection closed by the server (a restart) is sent once
 * more on a new one, as the real transports reconnect. No pub/sub: Redlock does not use it.
 */
public final class SocketTransport implements Transport {
    private final TransportConfig config;
    private final ExecutorService worker;
    private RespConnection connection; // touched by the worker only

    private SocketTransport(TransportConfig config) {
        this.config = config;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "socket-transport-" + config.uri().hosts().get(0));
            t.setDaemon(true);
            return t;
        });
    }

    /** The factory: every URI, this transport. */
    public static final class Factory implements TransportFactory {
        @Override
        public Transport connect(TransportConfig config) {
            SocketTransport transport = new SocketTransport(config);
            try {
                transport.worker.submit(() -> transport.call("PING")).get();
                return transport;
            } catch (Exception e) {
                transport.close();
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                throw cause instanceof LockConnectionException l
                        ? l
                        : new LockConnectionException(config.maskedUri(), "cannot connect: " + cause, cause);
            }
        }
    }

    private Object call(String... args) {
        boolean reused = connection != null;
        try {
            return callOnce(args);
        } catch (IOException e) {
            IOException failure = e;
            if (reused && !(e instanceof java.net.SocketTimeoutException)) {
                // A connection the server closed while it sat idle (a restart): as the real transports
                // reconnect, try once on a new one. Safe for the Redlock scripts, which are idempotent.
                dropConnection();
                try {
                    return callOnce(args);
                } catch (IOException retry) {
                    failure = retry;
                } catch (RedisErrorReply reply) {
                    throw new RedisReplyException(reply.getMessage(), reply);
                }
            }
            dropConnection();
            throw new LockConnectionException(
                    config.maskedUri(), "command " + args[0] + " failed: " + failure, failure);
        } catch (RedisErrorReply e) {
            throw new RedisReplyException(e.getMessage(), e);
        }
    }

    private void dropConnection() {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    private Object callOnce(String... args) throws IOException {
        if (connection == null) {
            var host = config.uri().hosts().get(0);
            connection =
                    RespConnection.open(host.host(), host.port(), config.uri().password(), config.commandTimeout());
        }
        return connection.call(args);
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        CompletableFuture<Object> reply = new CompletableFuture<>();
        try {
            worker.execute(() -> {
                try {
                    reply.complete(evalNow(script, keys, args));
                } catch (RuntimeException e) {
                    reply.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            reply.completeExceptionally(new LockConnectionException(config.maskedUri(), "transport closed", e));
        }
        return reply;
    }

    private Object evalNow(Script script, String[] keys, String[] args) {
        try {
            return call(ScriptCommand.of("EVALSHA", script.sha1(), keys, args));
        } catch (RedisReplyException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("NOSCRIPT")) {
                throw e;
            }
            return call(ScriptCommand.of("EVAL", script.source(), keys, args));
        }
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("no pub/sub in SocketTransport"));
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("no pub/sub in SocketTransport"));
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {}

    @Override
    public void close() {
        try {
            worker.execute(() -> {
                if (connection != null) {
                    connection.close();
                    connection = null;
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return; // closed already
        }
        worker.shutdown(); // a command stuck on a paused server ends with its socket timeout
    }
}
