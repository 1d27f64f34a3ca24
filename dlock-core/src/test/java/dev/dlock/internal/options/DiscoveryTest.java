package dev.dlock.internal.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import org.junit.jupiter.api.Test;

/** Which transport on the class path a client gets: the highest priority that supports the URI. */
final class DiscoveryTest {
    /** Like dlock-lettuce: every URI, priority 0. Listed first in META-INF/services. */
    public static final class Everywhere implements TransportFactory {
        @Override
        public Transport connect(TransportConfig config) {
            throw new UnsupportedOperationException();
        }
    }

    /** Like dlock-resp: standalone URIs only, ranked higher. */
    public static final class StandaloneOnly implements TransportFactory {
        @Override
        public Transport connect(TransportConfig config) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean supports(String redisUri) {
            return redisUri.startsWith("redis://") || redisUri.startsWith("rediss://");
        }

        @Override
        public int priority() {
            return 10;
        }
    }

    @Test
    void theHigherPriority_winsWhereItApplies_whateverTheClassPathOrder() {
        assertThat(ClientOptions.discover("redis://h:1", "redis://h:1")).isInstanceOf(StandaloneOnly.class);
        assertThat(ClientOptions.discover("rediss://h:1", "rediss://h:1")).isInstanceOf(StandaloneOnly.class);
    }

    @Test
    void aUriTheHigherOneRefuses_goesToAnotherThatTakesIt() {
        assertThat(ClientOptions.discover("redis-sentinel://h:26379/m", "redis-sentinel://h:26379/m"))
                .isInstanceOf(Everywhere.class);
    }
}
