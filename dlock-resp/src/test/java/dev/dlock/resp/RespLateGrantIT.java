package dev.dlock.resp;

import dev.dlock.contract.LateGrantContract;
import dev.dlock.spi.TransportFactory;

final class RespLateGrantIT extends LateGrantContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
