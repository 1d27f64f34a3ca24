package dev.dlock.lettuce;

import dev.dlock.contract.QueueCleanupContract;
import dev.dlock.spi.TransportFactory;

final class LettuceQueueCleanupIT extends QueueCleanupContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
