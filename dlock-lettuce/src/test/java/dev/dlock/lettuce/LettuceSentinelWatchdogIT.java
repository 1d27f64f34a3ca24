package dev.dlock.lettuce;

import dev.dlock.contract.WatchdogContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link WatchdogContract} on the Lettuce transport, against a Sentinel-managed master with a replica. */
final class LettuceSentinelWatchdogIT extends WatchdogContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
