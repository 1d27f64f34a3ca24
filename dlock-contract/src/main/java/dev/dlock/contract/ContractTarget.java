package dev.dlock.contract;

import dev.dlock.spi.RedisUri.Topology;
import dev.dlock.spi.TransportFactory;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where one run of a contract class goes: the transport under test (a new factory per call) and the topology. Its
 * string is the topology, which names the run in an IDE's test tree.
 *
 * @param transport makes a factory of the transport under test
 * @param topology the Redis topology the contract class runs against
 */
record ContractTarget(Supplier<TransportFactory> transport, Topology topology) {
    ContractTarget {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(topology, "topology");
    }

    @Override
    public String toString() {
        return topology.name();
    }
}
