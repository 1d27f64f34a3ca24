package dev.dlock;

/**
 * The base of every exception dlock throws for a failure of the lock service (as opposed to a
 * misuse of the API, which is reported with the JDK's {@link IllegalArgumentException}, {@link
 * IllegalStateException} or {@link IllegalMonitorStateException}).
 *
 * <p>All dlock exceptions are unchecked. Instances are immutable and safe to share between
 * threads.
 */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message and an optional cause.
     *
     * @param message what went wrong, naming the lock, key or Redis URI involved
     * @param cause the underlying failure, or {@code null}
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Creates an exception with a message.
     *
     * @param message what went wrong, naming the lock, key or Redis URI involved
     */
    public LockException(String message) {
        super(message);
    }
}
