package dev.dlock.resp;

import dev.dlock.contract.QueueCleanupContract;
import dev.dlock.spi.TransportFactory;

final class RespQueueCleanupIT extends QueueCleanupContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
