package dev.dlock.resp;

import dev.dlock.contract.RelayContract;
import dev.dlock.spi.TransportFactory;

final class RespRelayIT extends RelayContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
