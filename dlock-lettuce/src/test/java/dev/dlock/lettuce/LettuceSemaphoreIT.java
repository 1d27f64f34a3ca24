package dev.dlock.lettuce;

import dev.dlock.contract.SemaphoreContract;
import dev.dlock.spi.TransportFactory;

final class LettuceSemaphoreIT extends SemaphoreContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
