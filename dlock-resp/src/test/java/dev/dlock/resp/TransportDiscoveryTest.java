package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.TransportFactory;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The lock-level ITs scanned from dlock-lettuce's test-jar must run on this transport, and only on it. */
final class TransportDiscoveryTest {

    @Test
    void serviceLoader_findsOnlyRespTransportFactory() {
        assertThat(ServiceLoader.load(TransportFactory.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(RespTransportFactory.class);
        assertThatThrownBy(() -> Class.forName("dev.dlock.lettuce.LettuceTransportFactory"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
