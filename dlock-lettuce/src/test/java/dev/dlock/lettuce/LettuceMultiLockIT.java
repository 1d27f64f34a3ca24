package dev.dlock.lettuce;

import dev.dlock.contract.MultiLockContract;
import dev.dlock.spi.TransportFactory;

/** {@link MultiLockContract} on dlock-lettuce, against one standalone server. */
final class LettuceMultiLockIT extends MultiLockContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
