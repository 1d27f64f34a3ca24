package dev.dlock.resp;

import dev.dlock.contract.KindContract;
import dev.dlock.spi.TransportFactory;

/** {@link KindContract} on dlock-resp, against one standalone server. */
final class RespKindIT extends KindContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
