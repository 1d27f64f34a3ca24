package dev.dlock.resp;

import dev.dlock.contract.KindContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link KindContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelKindIT extends KindContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
