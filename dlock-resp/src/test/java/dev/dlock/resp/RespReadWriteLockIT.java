package dev.dlock.resp;

import dev.dlock.contract.ReadWriteLockContract;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteLockContract} on dlock-resp, against a standalone Redis. */
final class RespReadWriteLockIT extends ReadWriteLockContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
