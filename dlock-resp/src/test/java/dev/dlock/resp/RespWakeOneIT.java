package dev.dlock.resp;

import dev.dlock.contract.WakeOneContract;
import dev.dlock.spi.TransportFactory;

final class RespWakeOneIT extends WakeOneContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
