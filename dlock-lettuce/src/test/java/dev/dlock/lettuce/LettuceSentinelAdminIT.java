package dev.dlock.lettuce;

import dev.dlock.contract.AdminContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link AdminContract} on the Lettuce transport, against a Sentinel-managed master with a replica. */
final class LettuceSentinelAdminIT extends AdminContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
