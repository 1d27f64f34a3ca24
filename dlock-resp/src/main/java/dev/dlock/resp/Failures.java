package dev.dlock.resp;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import java.io.IOException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/** The exceptions futures complete with, worded as dlock-lettuce words them. */
final class Failures {
    private Failures() {}

    static RuntimeException reply(String maskedUri, String message) {
        if (Connection.isAuthenticationError(message)) {
            return new LockAuthenticationException(maskedUri, "Redis refused the credentials: " + message, null);
        }
        return new RedisReplyException(message, null);
    }

    static LockConnectionException timeout(String maskedUri, Duration timeout, Throwable notConnected) {
        String why = notConnected == null ? "" : "; not connected: " + notConnected.getMessage();
        return new LockConnectionException(maskedUri, "Redis did not answer in time (" + timeout + why + ")", null);
    }

    /**
     * For a request failed while no connection is open and reconnecting keeps failing (see {@link
     * ReconnectingChannel}); it was never sent.
     */
    static LockConnectionException notConnected(String maskedUri, RuntimeException refusal, long disconnectedNanos) {
        String why = refusal.getMessage();
        String suffix = " [" + maskedUri + "]";
        if (why != null && why.endsWith(suffix)) {
            why = why.substring(0, why.length() - suffix.length());
        }
        return new LockConnectionException(
                maskedUri,
                "not connected to Redis for " + TimeUnit.NANOSECONDS.toMillis(disconnectedNanos)
                        + " ms, and reconnecting fails (" + why + "); not sent",
                refusal);
    }

    static LockConnectionException lost(String maskedUri, Throwable cause) {
        String why = cause instanceof IOException io ? describe(io) : String.valueOf(cause);
        return new LockConnectionException(maskedUri, "lost the connection to Redis: " + why, cause);
    }

    /**
     * An I/O failure in words, without the exception's class name: {@code connection refused}, {@code unknown host
     * h}, {@code an HTTP server answered, not Redis (...)} ({@link RespReader}); the class's simple name only when
     * there is no message.
     */
    static String describe(IOException e) {
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            return e.getClass().getSimpleName();
        }
        if (e instanceof UnknownHostException) {
            return "unknown host " + message;
        }
        if (e instanceof SocketException) { // "Connection refused", "Connection reset", "No route to host"
            return message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
        }
        return message;
    }

    /** For a command answered NOSCRIPT that a newer command overtook; see {@link CommandChannel}. */
    static LockConnectionException overtaken(String maskedUri) {
        return new LockConnectionException(
                maskedUri,
                "Redis dropped its scripts (NOSCRIPT) and a newer command ran before this one could be resent;"
                        + " not resent, so that commands keep their order",
                null);
    }

    static LockConnectionException closed(String maskedUri) {
        return new LockConnectionException(maskedUri, "the dlock transport was closed", null);
    }
}
