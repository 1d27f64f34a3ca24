package dev.dlock;

/**
 * Redis refused the connection's credentials: a wrong password, a missing password, or an ACL user
 * without the permissions dlock needs.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class LockAuthenticationException extends LockConnectionException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception for refused credentials.
     *
     * @param redisUri the Redis URI, password masked
     * @param message what Redis said
     * @param cause the underlying failure, or {@code null}
     */
    public LockAuthenticationException(String redisUri, String message, Throwable cause) {
        super(redisUri, message, cause);
    }
}
