package dev.dlock.resp;

import dev.dlock.contract.StaleGrantContract;
import dev.dlock.spi.TransportFactory;

final class RespStaleGrantIT extends StaleGrantContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
