package dev.dlock.resp;

import dev.dlock.contract.ReadWriteHoldsContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteHoldsContract} on dlock-resp, against a Sentinel-managed master with a replica. */
final class RespSentinelReadWriteHoldsIT extends ReadWriteHoldsContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
