package dev.dlock.resp;

import dev.dlock.contract.WatchdogContract;
import dev.dlock.spi.TransportFactory;

final class RespWatchdogIT extends WatchdogContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
