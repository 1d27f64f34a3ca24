package dev.dlock.lettuce;

import dev.dlock.contract.KindContract;
import dev.dlock.spi.TransportFactory;

/** {@link KindContract} on dlock-lettuce, against one standalone server. */
final class LettuceKindIT extends KindContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
