package dev.dlock.lettuce;

import dev.dlock.contract.RelayContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link RelayContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterRelayIT extends RelayContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
