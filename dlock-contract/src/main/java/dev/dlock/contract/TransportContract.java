package dev.dlock.contract;

import dev.dlock.LockClient;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;
import org.junit.jupiter.params.Parameter;

/**
 * The base of every contract class. A transport runs the suite through one {@link ContractSuite} subclass,
 * which runs each contract class once per topology and sets {@link #transport()} and {@link #topology()} for the
 * run; a class run on its own (as {@link DiscoveryContract}'s subclass is) overrides {@link #transport()}. Every
 * client a contract test makes goes through {@link #connect(String)} or {@link #builder(String)}, so it runs on that
 * transport whatever else is on the class path; {@link #topology()} chooses the Redis topology for contracts on
 * {@link ContractRedis}.
 */
public abstract class TransportContract {
    /** The run's transport and topology, injected by the {@link ContractSuite}; null when run on its own. */
    @Parameter
    ContractTarget target;

    /** Extended by every contract class. */
    protected TransportContract() {}

    /**
     * The transport under test.
     *
     * @return a new factory of the transport under test, such as {@code new RespTransportFactory()}
     * @throws IllegalStateException if no {@link ContractSuite} runs the class and the subclass does not override this
     */
    protected TransportFactory transport() {
        if (target == null) {
            throw new IllegalStateException(
                    getClass().getName() + " names no transport: run it from a ContractSuite, or override transport()");
        }
        return target.transport().get();
    }

    /**
     * The topology the contract runs on: contract classes whose Redis is a {@link ContractRedis} start it for the
     * run. Tests that cannot hold on a topology skip themselves there with the reason.
     *
     * @return the run's topology; {@link RedisUri.Topology#STANDALONE} when no {@link ContractSuite} runs the class
     */
    protected RedisUri.Topology topology() {
        return target == null ? RedisUri.Topology.STANDALONE : target.topology();
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
