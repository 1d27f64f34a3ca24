package dev.dlock.lettuce;

import dev.dlock.contract.AdminContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link AdminContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterAdminIT extends AdminContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
