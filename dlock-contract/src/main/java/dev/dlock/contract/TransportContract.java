package dev.dlock.contract;

import dev.dlock.LockClient;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/**
 * The base of every contract class: a transport runs the suite by extending each contract class once
 * and naming itself in {@link #transport()}. Every client a contract test makes goes through {@link
 * #connect(String)} or {@link #builder(String)}, so it runs on that transport whatever else is on the
 * class path; {@link #topology()} chooses the Redis topology for contracts on {@link ContractRedis}.
 */
public abstract class TransportContract {

    /** Extended by every contract class. */
    protected TransportContract() {}
    /**
     * The transport under test.
     *
     * @return a factory of the transport under test, such as {@code new RespTransportFactory()}
     */
    protected abstract TransportFactory transport();

    /**
     * The topology the contract runs on: contract classes whose Redis is a {@link ContractRedis}
     * start it for their subclass (once per class); a transport adds a subclass that overrides this
     * to run a contract on Sentinel or a cluster. Tests that cannot hold on a topology skip themselves
     * there with the reason.
     *
     * @return the topology; {@link RedisUri.Topology#STANDALONE} unless overridden
     */
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.STANDALONE;
    }

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
