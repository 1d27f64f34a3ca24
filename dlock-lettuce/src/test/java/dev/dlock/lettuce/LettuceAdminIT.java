package dev.dlock.lettuce;

import dev.dlock.contract.AdminContract;
import dev.dlock.spi.TransportFactory;

final class LettuceAdminIT extends AdminContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
