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
     */
    Transport connect(TransportConfig config);
}
