package dev.dlock.lettuce;

import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;

/**
 * Connects dlock to Redis with Lettuce. Registered with {@link java.util.ServiceLoader}, so adding
 * this module is enough. This class is thread-safe.
 */
public final class LettuceTransportFactory implements TransportFactory {

    /** Creates the factory; {@link java.util.ServiceLoader} calls it. */
    public LettuceTransportFactory() {}

    /**
     * Opens a command connection and checks it with {@code PING}.
     *
     * @param config the validated options
     * @return the connected transport
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the timeout
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     * @throws dev.dlock.LockConfigurationException if Redis refuses the URI's database index (not
     *     retryable)
     */
    @Override
    public Transport connect(TransportConfig config) {
        return switch (config.uri().topology()) {
            case CLUSTER -> LettuceClusterTransport.connect(config);
            case STANDALONE, SENTINEL -> LettuceTransport.connect(config);
        };
    }
}
