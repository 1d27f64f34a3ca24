package dev.dlock.resp;

import dev.dlock.contract.WatchdogContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link WatchdogContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelWatchdogIT extends WatchdogContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
