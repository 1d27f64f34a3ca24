package dev.dlock.resp;

import dev.dlock.contract.FencingLimitContract;
import dev.dlock.spi.TransportFactory;

final class RespFencingLimitIT extends FencingLimitContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
