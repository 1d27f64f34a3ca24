package dev.dlock.lettuce;

import dev.dlock.contract.RedlockContract;
import dev.dlock.spi.TransportFactory;

/** {@link RedlockContract} on the Lettuce transport. */
final class LettuceRedlockIT extends RedlockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
