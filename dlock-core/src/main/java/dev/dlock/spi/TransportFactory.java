package dev.dlock.spi;

/**
 * Creates {@link Transport}s; found with {@link java.util.ServiceLoader} unless given to the client
 * builder. Implementations must be thread-safe and have a public no-argument constructor.
 */
public interface TransportFactory {

    /**
     * Connects to Redis and checks the connection (for example with {@code PING}), so that a wrong
     * address or password fails here rather than on the first lock.
     *
     * @param config the validated options
     * @return a connected transport
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the timeout
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     * @throws dev.dlock.LockConfigurationException if Redis refuses the URI's database index (not
     *     retryable)
     */
    Transport connect(TransportConfig config);

    /**
     * Whether this factory can connect to the URI (by its scheme: {@code redis://}, {@code
     * rediss://}, {@code redis-sentinel://}); discovery skips factories that cannot. The default
     * accepts every URI.
     *
     * @param redisUri the URI, already checked to be a Redis URI
     * @return true if {@link #connect} can serve it
     */
    default boolean supports(String redisUri) {
        return true;
    }

    /**
     * Ranks factories found on the class path that support the same URI: discovery takes the
     * highest, so the choice does not depend on the class path's order. The default is 0.
     *
     * @return the rank
     */
    default int priority() {
        return 0;
    }
}
