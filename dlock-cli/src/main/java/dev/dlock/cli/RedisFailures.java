package dev.dlock.cli;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * What dlock prints when Redis cannot be used: one line that names the (masked) URI once and says in words what
 * happened, never a Java class name (docs/cli.md, "Exit codes").
 *
 * <ul>
 *   <li>Nothing or something else answers: {@code cannot reach Redis at URI: connection refused} (also {@code unknown
 *       host h}, {@code an HTTP server answered, not Redis (HTTP/1.1 400 Bad Request)}), exit 69.
 *   <li>Refused credentials: {@code Redis at URI refused the credentials: WRONGPASS ...} (what Redis said), exit 69.
 *   <li>A database the server does not have ({@code redis://h/99}): a bad {@code --redis}, exit 64, with what Redis
 *       answered.
 *   <li>After connecting: {@code lost Redis at URI: ...}, exit 69.
 * </ul>
 *
 * <p>The transports word their exceptions as {@code what went wrong [URI]}: the URI is taken from the exception and
 * cut from its message, and a socket failure is read from its cause, so the wording does not depend on the transport.
 */
final class RedisFailures {
    /** What Redis (6.x and 7.x) answers to {@code SELECT} of a database index it does not have. */
    private static final String DB_OUT_OF_RANGE = "DB index is out of range";

    private static final String[] TRANSPORT_PREFIXES = {
        "cannot connect to Redis: ", "Redis refused the credentials: ", "lost the connection to Redis: "
    };

    private RedisFailures() {}

    /** A failure while connecting: exit 64 for a database index out of range, else 69. */
    static CliFailure connecting(LockException e) {
        String uri = uriOf(e);
        String reason = reason(e);
        if (e instanceof LockAuthenticationException) {
            return new CliFailure(ExitCodes.UNAVAILABLE, at("Redis", uri) + " refused the credentials: " + reason, e);
        }
        if (reason.contains(DB_OUT_OF_RANGE)) {
            return CliFailure.badOption(
                    "--redis",
                    "the database index is out of range: " + at("Redis", uri) + " answered "
                            + reason.substring(Math.max(0, reason.lastIndexOf("ERR "))),
                    e);
        }
        return new CliFailure(ExitCodes.UNAVAILABLE, at("cannot reach Redis", uri) + ": " + reason, e);
    }

    /** A failure after connecting, exit 69: Redis went away, refused the credentials, or answered with an error. */
    static CliFailure afterConnecting(LockException e) {
        if (e instanceof LockAuthenticationException) {
            return connecting(e);
        }
        if (e instanceof LockConnectionException) {
            return new CliFailure(ExitCodes.UNAVAILABLE, at("lost Redis", uriOf(e)) + ": " + reason(e), e);
        }
        return new CliFailure(ExitCodes.UNAVAILABLE, e.getMessage(), e);
    }

    /** Whether nothing answered at the URI at all (the demo then starts a redis-server of its own). */
    static boolean nothingAnswers(LockException e) {
        if (!(e instanceof LockConnectionException) || e instanceof LockAuthenticationException) {
            return false;
        }
        for (Throwable cause = e; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SocketTimeoutException) {
                return true;
            }
        }
        return socketFailure(e) != null;
    }

    private static String at(String what, String uri) {
        return uri == null ? what : what + " at " + uri;
    }

    /** The masked URI the exception names, or null. */
    private static String uriOf(LockException e) {
        if (e instanceof LockConnectionException connection) {
            return connection.redisUri();
        }
        String message = String.valueOf(e.getMessage());
        int open = message.lastIndexOf(" [");
        return open >= 0 && message.endsWith("]") ? message.substring(open + 2, message.length() - 1) : null;
    }

    /** What went wrong, without the URI, the transport's prefix or a class name. */
    static String reason(LockException e) {
        String socket = socketFailure(e);
        if (socket != null) {
            return socket;
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String uri = uriOf(e);
        if (uri != null && message.endsWith(" [" + uri + "]")) {
            message = message.substring(0, message.length() - uri.length() - 3);
        }
        for (String prefix : TRANSPORT_PREFIXES) {
            if (message.startsWith(prefix)) {
                message = message.substring(prefix.length());
            }
        }
        return message;
    }

    /**
     * The socket failure in the cause chain in words, or null: {@code connection refused}, {@code no route to host},
     * {@code unknown host h}. Netty's message adds the address ({@code Connection refused: /127.0.0.1:6380}), which
     * the URI already names.
     */
    private static String socketFailure(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof UnknownHostException) {
                return "unknown host " + cause.getMessage();
            }
            if (cause instanceof SocketException && cause.getMessage() != null) {
                String message = cause.getMessage();
                int colon = message.indexOf(": ");
                String words = colon > 0 ? message.substring(0, colon) : message;
                return words.substring(0, 1).toLowerCase(Locale.ROOT) + words.substring(1);
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
