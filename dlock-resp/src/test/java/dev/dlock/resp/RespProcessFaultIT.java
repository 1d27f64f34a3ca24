package dev.dlock.resp;

import dev.dlock.contract.ProcessFaultContract;
import dev.dlock.spi.TransportFactory;

final class RespProcessFaultIT extends ProcessFaultContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
