package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.TransportFactory;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** Discovery on this module's class path finds this transport, and only it: dlock-lettuce is not there. */
final class TransportDiscoveryTest {

    @Test
    void serviceLoader_findsOnlyRespTransportFactory() {
        assertThat(ServiceLoader.load(TransportFactory.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(RespTransportFactory.class);
        assertThatThrownBy(() -> Class.forName("dev.dlock.lettuce.LettuceTransportFactory"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
