package dev.dlock.lettuce;

import dev.dlock.contract.FailuresVisibleContract;
import dev.dlock.spi.TransportFactory;

final class LettuceFailuresVisibleIT extends FailuresVisibleContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
