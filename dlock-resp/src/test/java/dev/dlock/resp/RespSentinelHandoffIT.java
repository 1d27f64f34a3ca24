package dev.dlock.resp;

import dev.dlock.contract.HandoffContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link HandoffContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelHandoffIT extends HandoffContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
