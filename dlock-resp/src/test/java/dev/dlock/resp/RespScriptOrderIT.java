package dev.dlock.resp;

import dev.dlock.contract.ScriptOrderContract;
import dev.dlock.spi.TransportFactory;

final class RespScriptOrderIT extends ScriptOrderContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }
}
