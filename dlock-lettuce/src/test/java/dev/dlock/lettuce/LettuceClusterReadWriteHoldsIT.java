package dev.dlock.lettuce;

import dev.dlock.contract.ReadWriteHoldsContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteHoldsContract} on the Lettuce transport, against a Redis Cluster of three masters. */
final class LettuceClusterReadWriteHoldsIT extends ReadWriteHoldsContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.CLUSTER;
    }
}
