package dev.dlock.resp;

import dev.dlock.contract.SemaphoreContract;
import dev.dlock.spi.TransportFactory;

final class RespSemaphoreIT extends SemaphoreContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
