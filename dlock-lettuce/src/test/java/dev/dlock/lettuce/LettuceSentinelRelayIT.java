package dev.dlock.lettuce;

import dev.dlock.contract.RelayContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link RelayContract} on the Lettuce transport, against a Sentinel-managed master with a replica. */
final class LettuceSentinelRelayIT extends RelayContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
