package dev.dlock.lettuce;

import dev.dlock.contract.StaleGrantContract;
import dev.dlock.spi.TransportFactory;

final class LettuceStaleGrantIT extends StaleGrantContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
