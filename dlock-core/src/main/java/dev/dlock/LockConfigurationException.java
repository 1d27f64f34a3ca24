package dev.dlock;

/**
 * Redis refused the client's configuration in a way no retry can change: the URI names a database
 * index beyond the server's {@code databases} setting ({@code redis://host/99} answered {@code ERR DB
 * index is out of range}). The URI has to be corrected (or the server reconfigured and restarted), so
 * this is deliberately not a {@link LockConnectionException}: code that retries connection failures
 * does not retry it forever. Refused credentials stay a {@link LockAuthenticationException}, because
 * they can be fixed on the server while the client keeps retrying.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class LockConfigurationException extends LockException {
    private static final long serialVersionUID = 1L;

    /** The masked Redis URI. */
    private final String redisUri;

    /**
     * Creates an exception for a configuration the Redis at {@code redisUri} refused.
     *
     * @param redisUri the Redis URI, password masked
     * @param message what is wrong, quoting Redis' reply
     * @param cause the underlying failure, or {@code null}
     */
    public LockConfigurationException(String redisUri, String message, Throwable cause) {
        super(message + " [" + redisUri + "]", cause);
        this.redisUri = redisUri;
    }

    /**
     * Returns the Redis URI whose configuration was refused, with any password masked.
     *
     * @return the masked Redis URI
     */
    public String redisUri() {
        return redisUri;
    }
}
