package dev.dlock.resp;

import dev.dlock.contract.ServerConditionsContract;
import dev.dlock.spi.TransportFactory;

final class RespServerConditionsIT extends ServerConditionsContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
