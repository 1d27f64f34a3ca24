package dev.dlock.resp;

import dev.dlock.contract.RedlockContract;
import dev.dlock.spi.TransportFactory;

/** {@link RedlockContract} on the Resp transport. */
final class RespRedlockIT extends RedlockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
