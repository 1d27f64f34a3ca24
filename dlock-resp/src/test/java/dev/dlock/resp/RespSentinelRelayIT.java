package dev.dlock.resp;

import dev.dlock.contract.RelayContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link RelayContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelRelayIT extends RelayContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
