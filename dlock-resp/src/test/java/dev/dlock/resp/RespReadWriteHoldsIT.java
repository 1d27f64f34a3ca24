package dev.dlock.resp;

import dev.dlock.contract.ReadWriteHoldsContract;
import dev.dlock.spi.TransportFactory;

/** {@link ReadWriteHoldsContract} on dlock-resp, against a standalone Redis. */
final class RespReadWriteHoldsIT extends ReadWriteHoldsContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
