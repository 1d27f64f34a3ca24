package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/**
 * The other contract classes name their transport; an application that names none gets it by
 * discovery. Each transport runs the suite on a class path with no other transport, where discovery
 * must find exactly this one and a client built without a transport must use it. No server needed.
 */
public abstract class DiscoveryContract extends TransportContract {
    /**
     * The transport under test: this class runs on its own, not from a {@link ContractSuite}.
     *
     * @return a factory of the transport under test, such as {@code new RespTransportFactory()}
     */
    @Override
    protected abstract TransportFactory transport();

    /** Extended once by each transport's test class, which names its factory. */
    protected DiscoveryContract() {}

    @Test
    void serviceLoader_findsThisTransportAlone() {
        assertThat(ServiceLoader.load(TransportFactory.class).stream().map(ServiceLoader.Provider::type))
                .containsExactly(transport().getClass());
    }

    @Test
    void aClientWithoutATransport_connectsWithTheDiscoveredOne() {
        // a transport that was found tries the address; without one the build fails with a plain LockException
        assertThatThrownBy(() -> LockClient.builder()
                        .redisUri("redis://127.0.0.1:1")
                        .commandTimeout(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("127.0.0.1:1");
    }
}
