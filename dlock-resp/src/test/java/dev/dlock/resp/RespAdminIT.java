package dev.dlock.resp;

import dev.dlock.contract.AdminContract;
import dev.dlock.spi.TransportFactory;

final class RespAdminIT extends AdminContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
