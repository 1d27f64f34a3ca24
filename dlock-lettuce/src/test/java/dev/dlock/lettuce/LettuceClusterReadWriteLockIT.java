package dev.dlock.lettuce;

import dev.dlock.contract.ReadWriteLockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteLockContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterReadWriteLockIT extends ReadWriteLockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
