package dev.dlock.lettuce;

import dev.dlock.contract.WatchdogContract;
import dev.dlock.spi.TransportFactory;

final class LettuceWatchdogIT extends WatchdogContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
