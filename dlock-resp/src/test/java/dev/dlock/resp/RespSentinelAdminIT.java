package dev.dlock.resp;

import dev.dlock.contract.AdminContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link AdminContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelAdminIT extends AdminContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
