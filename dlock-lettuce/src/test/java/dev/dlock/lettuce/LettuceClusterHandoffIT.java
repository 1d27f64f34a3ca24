package dev.dlock.lettuce;

import dev.dlock.contract.HandoffContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link HandoffContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterHandoffIT extends HandoffContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
