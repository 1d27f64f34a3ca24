package dev.dlock.resp;

import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * A transport on one pipelined command connection, one lazily opened pub/sub connection and one
 * timer thread that fails commands past the command timeout. A script is sent as source on its
 * first use per connection and by SHA-1 after that, and as source again after {@code NOSCRIPT}.
 * Standalone Redis only: {@link #slot} is always 0.
 */
final class RespTransport implements Transport {
    private static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Duration timeout;
    private final long timeoutNanos;
    private final long tickNanos;
    private final String maskedUri;
    private final CommandChannel commands;
    private final PubSubChannel pubSub;
    private final ConcurrentHashMap<String, ScriptBytes> scripts = new ConcurrentHashMap<>();
    private final Thread timer;
    private volatile boolean closed;

    private RespTransport(TransportConfig config, RedisEndpoint endpoint) {
        this.timeout = config.commandTimeout();
        this.timeoutNanos = timeout.toNanos();
        this.tickNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(MAX_TICK_NANOS, timeoutNanos / 20));
        this.maskedUri = config.maskedUri();
        this.commands = new CommandChannel(endpoint, config.clientName(), timeout, maskedUri);
        this.pubSub = new PubSubChannel(endpoint, config.clientName(), timeout, maskedUri);
        commands.connect();
        this.timer = Daemons.start("dlock-resp-timer-" + config.clientName(), this::runTimer);
    }

    static RespTransport connect(TransportConfig config) {
        return new RespTransport(config, RedisEndpoint.parse(config.redisUri(), config.maskedUri()));
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        ScriptBytes bytes = scripts.get(script.sha1());
        if (bytes == null) {
            bytes = scripts.computeIfAbsent(script.sha1(), sha -> new ScriptBytes(script));
        }
        // No copies: the SPI says callers leave the arrays alone, so NOSCRIPT or a reconnect can resend them.
        EvalCommand command = new EvalCommand(bytes, keys, args, System.nanoTime() + timeoutNanos);
        commands.send(command);
        return command;
    }

    @Override
    public CompletableFuture<Void> subscribe(String channel) {
        return pubSub.request(true, channel);
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String channel) {
        return pubSub.request(false, channel);
    }

    @Override
    public void onMessage(BiConsumer<String, String> listener) {
        pubSub.onMessage(listener);
    }

    private void runTimer() {
        List<Pending<?>> overdue = new ArrayList<>();
        while (!closed) {
            LockSupport.parkNanos(tickNanos);
            long now = System.nanoTime();
            commands.collectOverdue(now, overdue);
            pubSub.collectOverdue(now, overdue);
            if (!overdue.isEmpty()) {
                RuntimeException reason = commands.notConnectedReason();
                for (Pending<?> p : overdue) {
                    p.fail(Failures.timeout(
                            maskedUri, timeout, p instanceof PubSubOp ? pubSub.notConnectedReason() : reason));
                }
                overdue.clear();
            }
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        commands.close();
        pubSub.close();
        LockSupport.unpark(timer);
    }
}
