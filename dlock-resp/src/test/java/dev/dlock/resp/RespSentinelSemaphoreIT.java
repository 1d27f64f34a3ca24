package dev.dlock.resp;

import dev.dlock.contract.SemaphoreContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link SemaphoreContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelSemaphoreIT extends SemaphoreContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
