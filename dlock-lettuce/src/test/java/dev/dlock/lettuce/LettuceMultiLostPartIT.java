package dev.dlock.lettuce;

import dev.dlock.contract.MultiLostPartContract;
import dev.dlock.spi.TransportFactory;

final class LettuceMultiLostPartIT extends MultiLostPartContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
