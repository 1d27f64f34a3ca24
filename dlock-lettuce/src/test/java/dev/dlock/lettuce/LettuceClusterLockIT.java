package dev.dlock.lettuce;

import dev.dlock.contract.LockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link LockContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterLockIT extends LockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
