package dev.dlock.resp;

import dev.dlock.contract.LockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link LockContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelLockIT extends LockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
