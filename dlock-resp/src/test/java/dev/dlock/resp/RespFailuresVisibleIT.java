package dev.dlock.resp;

import dev.dlock.contract.FailuresVisibleContract;
import dev.dlock.spi.TransportFactory;

final class RespFailuresVisibleIT extends FailuresVisibleContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
