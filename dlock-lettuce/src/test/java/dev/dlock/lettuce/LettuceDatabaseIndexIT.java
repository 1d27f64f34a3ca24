package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockClient;
import dev.dlock.LockConfigurationException;
import dev.dlock.LockConnectionException;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A database index the server does not have is a configuration error, not a connection failure that
 * retry code would retry forever (issue 27).
 */
final class LettuceDatabaseIndexIT {
    private static LockClient connect(String uri) {
        return LockClient.builder()
                .redisUri(uri)
                .commandTimeout(Duration.ofSeconds(2))
                .transport(new LettuceTransportFactory())
                .build();
    }

    @Test
    void databaseOutOfRange_failsWithConfigurationError_notConnectionError() {
        try (RedisServer server = RedisServer.builder().start()) {
            String uri = server.uri() + "/99";
            assertThatThrownBy(() -> connect(uri))
                    .isInstanceOf(LockConfigurationException.class)
                    .isNotInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("DB index is out of range")
                    .hasMessageContaining(uri)
                    .satisfies(e -> assertThat(((LockConfigurationException) e).redisUri())
                            .isEqualTo(uri));
            // the last of the server's 16 databases is fine
            try (LockClient client = connect(server.uri() + "/15")) {
                assertThat(client.lock("a").tryLock()).isTrue();
                client.lock("a").unlock();
            }
        }
    }

    @Test
    void refusedCredentials_stillReportedAsSuch_beforeTheDatabase() {
        try (RedisServer server = RedisServer.builder().password("s3cret").start()) {
            assertThatThrownBy(() -> connect("redis://127.0.0.1:" + server.port() + "/99"))
                    .isInstanceOf(LockAuthenticationException.class);
            assertThatThrownBy(() -> connect("redis://:s3cret@127.0.0.1:" + server.port() + "/99"))
                    .isInstanceOf(LockConfigurationException.class)
                    .hasMessageContaining("DB index is out of range")
                    .hasMessageContaining(":***@127.0.0.1:" + server.port() + "/99")
                    .hasMessageNotContaining("s3cret");
        }
    }
}
