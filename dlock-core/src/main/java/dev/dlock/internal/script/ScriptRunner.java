package dev.dlock.internal.script;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockReplicationException;
import dev.dlock.LockServerException;
import dev.dlock.internal.util.Await;
import dev.dlock.internal.util.Controls;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiFunction;

/**
 * Runs a script on the transport, waits for its reply within the command timeout, and turns a
 * failure into dlock's exceptions, naming the key and the (masked) URI. Thread-safe: it holds only
 * immutable state and the thread-safe transport.
 */
public final class ScriptRunner {
    private final Transport transport;
    private final String maskedUri;
    private final Duration commandTimeout;
    private final ReplicaAck ack; // null: no replica acknowledgement
    private final long awaitMillis;
    private final BiFunction<Exception, String, RuntimeException> noAnswer = this::noAnswer;
    private final boolean sharded; // hand-off messages through SPUBLISH
    private final boolean holdersExpiryLowered; // the negative control Controls.holdersExpiryLowered
    private final boolean lostSetPermits; // the negative control Controls.Control.LOST_SET_PERMITS
    private final boolean ackSkipped; // the negative control Controls.Control.REPLICA_ACK_SKIPPED
    private final Await await;

    public ScriptRunner(Transport transport, String maskedUri, Duration commandTimeout, ReplicaAck ack) {
        this(transport, maskedUri, commandTimeout, ack, Controls.NONE, Await.SYSTEM);
    }

    /**
     * A runner whose scripts are the variants the client's negative controls ask for (Controls), and whose
     * callers wait through {@code await} (the client's runtime).
     */
    public ScriptRunner(
            Transport transport,
            String maskedUri,
            Duration commandTimeout,
            ReplicaAck ack,
            Controls controls,
            Await await) {
        this.await = await;
        this.transport = transport;
        this.maskedUri = maskedUri;
        this.commandTimeout = commandTimeout;
        this.ack = ack;
        this.awaitMillis = commandTimeout.toMillis() + 1000 + (ack == null ? 0 : ack.timeoutMillis());
        this.sharded = transport.shardedPubSub();
        this.holdersExpiryLowered = controls.holdersExpiryLowered();
        this.lostSetPermits = controls.has(Controls.Control.LOST_SET_PERMITS);
        this.ackSkipped = controls.has(Controls.Control.REPLICA_ACK_SKIPPED);
    }

    /** The script as it runs on this transport, under this client's controls. */
    private Script variant(Script script) {
        Script s = lostSetPermits ? Scripts.lostSetPermits(script) : script;
        s = holdersExpiryLowered ? Scripts.holdersExpiryLowered(s) : s;
        return sharded ? Scripts.sharded(s) : s;
    }

    /** The longest one command may take. */
    public Duration commandTimeout() {
        return commandTimeout;
    }

    /** Runs a script; a transport that throws instead of failing the future fails it here. */
    public CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        try {
            return transport.eval(variant(script), keys, args);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** How many masters hold keys (a cluster's; 1 otherwise). */
    public int masterCount() {
        return transport.masterCount();
    }

    /** Runs a keyless script on one master; see {@link Transport#evalOnMaster}. */
    public CompletableFuture<Object> evalOnMaster(int master, Script script, String[] args) {
        try {
            return transport.evalOnMaster(master, script, args);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Runs a script whose writes grant or keep a lock: with {@code replicaAcks}, the transport waits
     * for the replicas on the connection that ran it; without, the count is 0 and {@link
     * #acknowledged} is always true.
     */
    public CompletableFuture<Replicated> evalGranting(Script script, String[] keys, String[] args) {
        if (ack == null) {
            return eval(script, keys, args).thenApply(reply -> new Replicated(reply, 0));
        }
        if (ackSkipped) { // the negative control: no WAIT, and counted as acknowledged
            return eval(script, keys, args).thenApply(reply -> new Replicated(reply, ack.replicas()));
        }
        try {
            return transport.evalReplicated(variant(script), keys, args, ack);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Whether writes wait for replicas at all. */
    public boolean waitsForReplicas() {
        return ack != null;
    }

    /** Whether enough replicas acknowledged (always, without {@code replicaAcks}). */
    public boolean acknowledged(Replicated reply) {
        return ack == null || reply.acknowledged() >= ack.replicas();
    }

    /** The failure of a write that too few replicas acknowledged; {@code what} names the write. */
    public LockReplicationException notAcknowledged(String key, Replicated reply, String what) {
        return new LockReplicationException(key, reply.acknowledged(), ack.replicas(), what);
    }

    /** Waits for a command's reply, bounded by the command timeout, and translates failures. */
    public <T> T await(CompletableFuture<T> future, String key) {
        return await.reply(future, awaitMillis, key, noAnswer);
    }

    /** How a caller's thread waits, through the client's runtime. */
    public Await waits() {
        return await;
    }

    private RuntimeException noAnswer(Exception e, String key) {
        if (e instanceof InterruptedException) {
            return new LockException("interrupted while waiting for Redis about " + key, e);
        }
        if (e instanceof ExecutionException) {
            return translate(e.getCause(), key);
        }
        return new LockConnectionException(maskedUri, "no answer within " + commandTimeout + " about " + key, e);
    }

    /** Maps a transport failure to dlock's exceptions, naming the key. */
    public RuntimeException translate(Throwable error, String key) {
        while (error instanceof CompletionException || error instanceof ExecutionException) {
            if (error.getCause() == null) {
                break;
            }
            error = error.getCause();
        }
        if (error instanceof CancellationException c) {
            return c;
        }
        if (error instanceof RedisReplyException reply) {
            String message = reply.getMessage() == null ? "" : reply.getMessage();
            if (message.contains("WRONGTYPE")) {
                return new LockServerException(
                        key,
                        "the lock key '" + key + "' holds a value of another type; nothing was changed (Redis: "
                                + message + ")",
                        reply);
            }
            if (message.startsWith("OOM") || message.contains("OOM command not allowed")) { // 6.2 prefixes "-OOM"
                return new LockServerException(
                        key,
                        "Redis is out of memory (maxmemory reached) and refused to write '" + key
                                + "'; nothing was written (Redis: " + message + ")",
                        reply);
            }
            return new LockServerException(key, "Redis refused the command on '" + key + "': " + message, reply);
        }
        if (error instanceof LockException e) {
            return e;
        }
        if (error instanceof IllegalArgumentException e) {
            return e;
        }
        return new LockConnectionException(maskedUri, "command on '" + key + "' failed: " + error, error);
    }
}
