package dev.dlock.lettuce;

import dev.dlock.contract.KindContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link KindContract} on dlock-lettuce, against a Redis Cluster of three masters (a multi-lock's names on different slots). */
final class LettuceClusterKindIT extends KindContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
