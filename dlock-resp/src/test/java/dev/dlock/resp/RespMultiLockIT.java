package dev.dlock.resp;

import dev.dlock.contract.MultiLockContract;
import dev.dlock.spi.TransportFactory;

/** {@link MultiLockContract} on dlock-resp, against one standalone server. */
final class RespMultiLockIT extends MultiLockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
