package dev.dlock.lettuce;

import dev.dlock.contract.HandoffContract;
import dev.dlock.spi.TransportFactory;

final class LettuceHandoffIT extends HandoffContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
