package dev.dlock.internal;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockServerException;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a script on the transport, waits for its reply within the command timeout, and turns a
 * failure into dlock's exceptions, naming the key and the (masked) URI. Thread-safe: it holds only
 * immutable state and the thread-safe transport.
 */
final class ScriptRunner {
    private final Transport transport;
    private final String maskedUri;
    private final Duration commandTimeout;

    ScriptRunner(Transport transport, String maskedUri, Duration commandTimeout) {
        this.transport = transport;
        this.maskedUri = maskedUri;
        this.commandTimeout = commandTimeout;
    }

    /** The longest one command may take. */
    Duration commandTimeout() {
        return commandTimeout;
    }

    /** Runs a script; a transport that throws instead of failing the future fails it here. */
    CompletableFuture<Object> eval(Script script, String[] keys, String[] args) {
        try {
            return transport.eval(script, keys, args);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Waits for a command's reply, bounded by the command timeout, and translates failures. */
    <T> T await(CompletableFuture<T> future, String key) {
        try {
            return future.get(commandTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for Redis about " + key, e);
        } catch (ExecutionException e) {
            throw translate(e.getCause(), key);
        } catch (TimeoutException e) {
            throw new LockConnectionException(maskedUri, "no answer within " + commandTimeout + " about " + key, e);
        }
    }

    /** Maps a transport failure to dlock's exceptions, naming the key. */
    RuntimeException translate(Throwable error, String key) {
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
