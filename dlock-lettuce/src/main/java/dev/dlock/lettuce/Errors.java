package dev.dlock.lettuce;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConfigurationException;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisReplyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisNoScriptException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns Lettuce's exceptions into dlock's typed errors, each naming the masked URI. */
final class Errors {
    private Errors() {}

    /** A failure to connect: the credentials refused, the database index refused, or the server unreachable. */
    static RuntimeException connectFailure(String maskedUri, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String message = String.valueOf(t.getMessage());
            if (message.contains("NOAUTH")
                    || message.contains("WRONGPASS")
                    || message.contains("invalid password")
                    || message.contains("invalid username-password")) {
                return new LockAuthenticationException(maskedUri, "Redis refused the credentials: " + message, e);
            }
            if (message.contains("DB index is out of range")) {
                // only another URI (or server) helps, so not a connection failure that retries could cure
                return new LockConfigurationException(
                        maskedUri, "Redis refused the database of the URI: " + message.strip(), e);
            }
        }
        return new LockConnectionException(maskedUri, "cannot connect to Redis: " + rootMessage(e), e);
    }

    /** Seen under load: the server's refusal of AUTH races with the channel's close, and the reason is lost. */
    static boolean closedDuringHandshake(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (String.valueOf(t.getMessage()).contains("closed prematurely")) {
                return true;
            }
        }
        return false;
    }

    /** A command's failure. */
    static RuntimeException translate(String maskedUri, Throwable error) {
        error = unwrap(error);
        if (error instanceof LockConnectionException || error instanceof RedisReplyException) {
            return (RuntimeException) error;
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

    static Throwable unwrap(Throwable error) {
        while ((error instanceof CompletionException || error instanceof ExecutionException)
                && error.getCause() != null) {
            error = error.getCause();
        }
        return error;
    }

    static boolean isNoScript(Throwable error) {
        error = unwrap(error);
        return error instanceof RedisNoScriptException
                || String.valueOf(error.getMessage()).startsWith("NOSCRIPT");
    }

    /** An error reply of a server that is (now) a replica: a master demoted while the connection stayed up. */
    static boolean isReadOnly(Throwable error) {
        error = unwrap(error);
        return error instanceof RedisCommandExecutionException
                && String.valueOf(error.getMessage()).startsWith("READONLY");
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + root + ")";
        // Lettuce's cluster errors span lines ("Details:" and one line per node); a message is one line
        return message.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
