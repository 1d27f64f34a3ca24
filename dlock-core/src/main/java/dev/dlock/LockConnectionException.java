package dev.dlock;

/**
 * Redis could not be reached, did not answer within the command timeout, or the client was closed
 * while a command was in flight. The message names the Redis URI (with any password masked).
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public class LockConnectionException extends LockException {
    private static final long serialVersionUID = 1L;

    /** The masked Redis URI. */
    private final String redisUri;

    /**
     * Creates an exception for a failure talking to the Redis at {@code redisUri}.
     *
     * @param redisUri the Redis URI, password masked
     * @param message what went wrong
     * @param cause the underlying failure, or {@code null}
     */
    public LockConnectionException(String redisUri, String message, Throwable cause) {
        super(message + " [" + redisUri + "]", cause);
        this.redisUri = redisUri;
    }

    /**
     * Returns the Redis URI this failure concerns, with any password masked.
     *
     * @return the masked Redis URI
     */
    public String redisUri() {
        return redisUri;
    }
}
