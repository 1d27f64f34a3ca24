package dev.dlock.lettuce;

import dev.dlock.contract.ProcessFaultContract;
import dev.dlock.spi.TransportFactory;

final class LettuceProcessFaultIT extends ProcessFaultContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
