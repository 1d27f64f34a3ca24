package dev.dlock.resp;

import dev.dlock.contract.ReadWriteLockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteLockContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelReadWriteLockIT extends ReadWriteLockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
