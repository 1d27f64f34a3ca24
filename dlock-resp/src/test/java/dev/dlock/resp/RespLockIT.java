package dev.dlock.resp;

import dev.dlock.contract.LockContract;
import dev.dlock.spi.TransportFactory;

final class RespLockIT extends LockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
