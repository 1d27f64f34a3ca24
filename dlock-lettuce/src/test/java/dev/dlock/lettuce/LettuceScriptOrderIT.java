package dev.dlock.lettuce;

import dev.dlock.contract.ScriptOrderContract;
import dev.dlock.spi.TransportFactory;

final class LettuceScriptOrderIT extends ScriptOrderContract {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }
}
