package dev.dlock.lettuce;

import dev.dlock.contract.RedlockMultiLockContract;
import dev.dlock.spi.TransportFactory;

/** {@link RedlockMultiLockContract} on the Lettuce transport. */
final class LettuceRedlockMultiLockIT extends RedlockMultiLockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
