package dev.dlock.lettuce;

import dev.dlock.contract.HandoffContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link HandoffContract} on the Lettuce transport, against a Sentinel-managed master with a replica. */
final class LettuceSentinelHandoffIT extends HandoffContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
