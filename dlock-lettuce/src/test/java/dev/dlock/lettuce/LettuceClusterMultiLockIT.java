package dev.dlock.lettuce;

import dev.dlock.contract.MultiLockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link MultiLockContract} on dlock-lettuce, against a Redis Cluster of three masters (the names on different slots). */
final class LettuceClusterMultiLockIT extends MultiLockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
