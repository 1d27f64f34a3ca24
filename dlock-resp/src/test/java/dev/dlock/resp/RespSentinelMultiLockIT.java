package dev.dlock.resp;

import dev.dlock.contract.MultiLockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link MultiLockContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelMultiLockIT extends MultiLockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
