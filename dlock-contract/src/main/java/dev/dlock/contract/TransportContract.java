package dev.dlock.contract;

import dev.dlock.LockClient;
import dev.dlock.spi.TransportFactory;

/**
 * The base of every contract class: a transport runs the suite by extending each contract class once
 * and naming itself in {@link #transport()}. Every client a contract test makes goes through {@link
 * #connect(String)} or {@link #builder(String)}, so it runs on that transport whatever else is on the
 * class path.
 */
public abstract class TransportContract {
    /**
     * The transport under test.
     *
     * @return a factory of the transport under test, such as {@code new RespTransportFactory()}
     */
    protected abstract TransportFactory transport();

    /**
     * A builder for a client of the Redis at {@code uri} on {@link #transport()}.
     *
     * @param uri the Redis URI
     * @return a builder with the URI and the transport set
     */
    protected final LockClient.Builder builder(String uri) {
        return LockClient.builder().redisUri(uri).transport(transport());
    }

    /**
     * A client with default options of the Redis at {@code uri} on {@link #transport()}.
     *
     * @param uri the Redis URI
     * @return a connected client
     */
    protected final LockClient connect(String uri) {
        return builder(uri).build();
    }
}
