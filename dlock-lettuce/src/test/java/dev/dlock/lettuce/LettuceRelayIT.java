package dev.dlock.lettuce;

import dev.dlock.contract.RelayContract;
import dev.dlock.spi.TransportFactory;

final class LettuceRelayIT extends RelayContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
