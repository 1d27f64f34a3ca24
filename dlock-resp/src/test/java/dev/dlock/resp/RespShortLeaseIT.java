package dev.dlock.resp;

import dev.dlock.contract.ShortLeaseContract;
import dev.dlock.spi.TransportFactory;

final class RespShortLeaseIT extends ShortLeaseContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
