package dev.dlock.resp;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import java.time.Duration;
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
        return new LockConnectionException(maskedUri, "lost the connection to Redis: " + cause, cause);
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
