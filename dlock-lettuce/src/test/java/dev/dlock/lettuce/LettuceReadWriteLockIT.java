package dev.dlock.lettuce;

import dev.dlock.contract.ReadWriteLockContract;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteLockContract} on the Lettuce transport, against a standalone Redis. */
final class LettuceReadWriteLockIT extends ReadWriteLockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
