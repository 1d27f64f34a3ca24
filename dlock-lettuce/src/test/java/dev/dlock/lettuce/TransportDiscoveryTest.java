package dev.dlock.lettuce;

import dev.dlock.contract.DiscoveryContract;
import dev.dlock.spi.TransportFactory;

final class TransportDiscoveryTest extends DiscoveryContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
