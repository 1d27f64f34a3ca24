package dev.dlock.lettuce;

import dev.dlock.contract.LateGrantContract;
import dev.dlock.spi.TransportFactory;

final class LettuceLateGrantIT extends LateGrantContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
