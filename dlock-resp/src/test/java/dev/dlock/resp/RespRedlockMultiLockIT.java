package dev.dlock.resp;

import dev.dlock.contract.RedlockMultiLockContract;
import dev.dlock.spi.TransportFactory;

/** {@link RedlockMultiLockContract} on the Resp transport. */
final class RespRedlockMultiLockIT extends RedlockMultiLockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
