package dev.dlock.lettuce;

import dev.dlock.contract.LockContract;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;

/** {@link LockContract} on the Lettuce transport, against a Sentinel-managed master with a replica. */
final class LettuceSentinelLockIT extends LockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected RedisUri.Topology topology() {
        return RedisUri.Topology.SENTINEL;
    }
}
