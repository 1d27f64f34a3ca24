package dev.dlock.lettuce;

import dev.dlock.contract.ShortLeaseContract;
import dev.dlock.spi.TransportFactory;

final class LettuceShortLeaseIT extends ShortLeaseContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
