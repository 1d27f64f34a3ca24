package dev.dlock.resp;

import dev.dlock.contract.MultiLostPartContract;
import dev.dlock.spi.TransportFactory;

final class RespMultiLostPartIT extends MultiLostPartContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
