package dev.dlock.lettuce;

import dev.dlock.contract.ServerConditionsContract;
import dev.dlock.spi.TransportFactory;

final class LettuceServerConditionsIT extends ServerConditionsContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
