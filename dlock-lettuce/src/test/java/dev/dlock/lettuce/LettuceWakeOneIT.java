package dev.dlock.lettuce;

import dev.dlock.contract.WakeOneContract;
import dev.dlock.spi.TransportFactory;

final class LettuceWakeOneIT extends WakeOneContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
