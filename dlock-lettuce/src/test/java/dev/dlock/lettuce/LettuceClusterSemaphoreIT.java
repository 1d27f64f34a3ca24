package dev.dlock.lettuce;

import dev.dlock.contract.SemaphoreContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link SemaphoreContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterSemaphoreIT extends SemaphoreContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
