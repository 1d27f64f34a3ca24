package dev.dlock.lettuce;

import dev.dlock.contract.LockContract;
import dev.dlock.spi.TransportFactory;

final class LettuceLockIT extends LockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
