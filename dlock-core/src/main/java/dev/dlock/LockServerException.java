package dev.dlock;

/**
 * Redis answered a lock command with an error: the lock's key holds a value of another type, the
 * server is out of memory under {@code maxmemory-policy noeviction}, it is read-only, and so on. The
 * message names the key and quotes Redis' reply. A command that failed this way wrote nothing.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class LockServerException extends LockException {
    private static final long serialVersionUID = 1L;

    /** The key. */
    private final String key;

    /**
     * Creates an exception for an error reply about {@code key}.
     *
     * @param key the Redis key the failed command was about
     * @param message what went wrong, quoting Redis' reply
     * @param cause the underlying failure, or {@code null}
     */
    public LockServerException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /**
     * Returns the Redis key the failed command was about.
     *
     * @return the key
     */
    public String key() {
        return key;
    }
}
