package dev.dlock.resp;

import dev.dlock.contract.HandoffContract;
import dev.dlock.spi.TransportFactory;

final class RespHandoffIT extends HandoffContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
