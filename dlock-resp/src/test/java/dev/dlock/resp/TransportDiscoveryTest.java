package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.contract.DiscoveryContract;
import dev.dlock.spi.TransportFactory;
import org.junit.jupiter.api.Test;

/** Discovery on this module's class path finds this transport, and only it: dlock-lettuce is not there. */
final class TransportDiscoveryTest extends DiscoveryContract {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Test
    void lettuceTransportFactory_isNotOnTheClassPath() {
        assertThatThrownBy(() -> Class.forName("dev.dlock.lettuce.LettuceTransportFactory"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
