package dev.dlock.lettuce;

import dev.dlock.contract.ReadWriteHoldsContract;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteHoldsContract} on the Lettuce transport, against a standalone Redis. */
final class LettuceReadWriteHoldsIT extends ReadWriteHoldsContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
