package dev.dlock.resp;

import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
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
 * A standalone server, or the master of a Sentinel deployment, found again on every reconnect
 * ({@link SentinelDialer}); {@link #slot} is always 0.
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

    private RespTransport(TransportConfig config, ServerDialer dialer) {
        this.timeout = config.commandTimeout();
        this.timeoutNanos = timeout.toNanos();
        this.tickNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(1), Math.min(MAX_TICK_NANOS, timeoutNanos / 20));
        this.maskedUri = config.maskedUri();
        this.commands = new CommandChannel(dialer, config.clientName(), timeout, maskedUri);
        this.pubSub = new PubSubChannel(dialer, config.clientName(), timeout, maskedUri);
        // A demoted master answers writes with READONLY while its pub/sub connection stays quiet: move both.
        commands.onDemoted(pubSub::drop);
        commands.connect();
        this.timer = Daemons.start("dlock-resp-timer-" + config.clientName(), this::runTimer);
    }

    static RespTransport connect(TransportConfig config) {
        return new RespTransport(config, ServerDialer.of(config.uri()));
    }

    @Override
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        // No copies: the SPI says callers leave the arrays alone, so NOSCRIPT or a reconnect can resend them.
        EvalCommand command = new EvalCommand(bytes(script), keys, args, System.nanoTime() + timeoutNanos);
        commands.send(command);
        return command;
    }

    @Override
    public boolean waitsForReplicas() {
        return true;
    }

    /**
     * Sends the script and its {@code WAIT} as one pipelined pair ({@link ReplicatedEval}); the pair
     * may take the command timeout plus the ack timeout. Commands queued behind it wait for the
     * {@code WAIT}'s reply too (one connection answers in order), and time out no earlier than it.
     */
    @Override
    public CompletableFuture<Replicated> evalReplicated(Script script, String[] keys, String[] args, ReplicaAck ack) {
        long deadline = System.nanoTime() + timeoutNanos + ack.timeout().toNanos();
        ReplicatedEval command = new ReplicatedEval(bytes(script), keys, args, ack, deadline);
        commands.send(command);
        return command.thenApply(Replicated.class::cast);
    }

    private ScriptBytes bytes(Script script) {
        ScriptBytes bytes = scripts.get(script.sha1());
        return bytes != null ? bytes : scripts.computeIfAbsent(script.sha1(), sha -> new ScriptBytes(script));
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

    /** Whether the command connection is live; for tests that must know a loss has been seen. */
    boolean commandsLinked() {
        return commands.linked();
    }

    private void runTimer() {
        List<Pending<?>> overdue = new ArrayList<>();
        while (!closed) {
            LockSupport.parkNanos(tickNanos);
            long now = System.nanoTime();
            commands.failWaitingIfDown(now);
            pubSub.failWaitingIfDown(now);
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
