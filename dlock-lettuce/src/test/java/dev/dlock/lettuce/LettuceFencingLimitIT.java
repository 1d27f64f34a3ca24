package dev.dlock.lettuce;

import dev.dlock.contract.FencingLimitContract;
import dev.dlock.spi.TransportFactory;

final class LettuceFencingLimitIT extends FencingLimitContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
