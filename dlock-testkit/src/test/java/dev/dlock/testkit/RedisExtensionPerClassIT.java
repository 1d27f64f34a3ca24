package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class RedisExtensionPerClassIT {

    @RegisterExtension
    static final RedisExtension redis =
            RedisExtension.builder().aof(true).password("s3cret").build();

    private static int port;

    @BeforeAll
    static void rememberPort(RedisServer server) {
        assertThat(server).isSameAs(redis.server());
        port = server.port();
    }

    @AfterAll
    static void serverStillRunsUntilAfterAll() {
        assertThat(redis.server().isRunning()).isTrue();
    }

    @Test
    @Order(1)
    void firstTest_writesKey_andKillsServer(RedisServer server) {
        assertThat(server).isSameAs(redis.server());
        assertThat(server.isAof()).isTrue();
        assertThat(server.uri()).contains(":s3cret@");
        server.command("SET", "left-over", "1");

        server.kill();
    }

    @Test
    @Order(2)
    void secondTest_getsRestartedServer_flushed(RedisServer server) {
        assertThat(server.isRunning()).isTrue();
        assertThat(server.port()).isEqualTo(port);
        assertThat(server.command("DBSIZE")).isEqualTo(0L);
        server.command("SET", "again", "1");

        server.pause();
    }

    @Test
    @Order(3)
    void thirdTest_getsResumedServer_flushed() {
        RedisServer server = redis.server();
        assertThat(server.isPaused()).isFalse();
        assertThat(server.command("KEYS", "*")).isEqualTo(List.of());
        assertThat(server.port()).isEqualTo(port);
    }

    @Nested
    final class NestedTests {

        @Test
        void nestedClass_sharesOuterServer(RedisServer server) {
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }
}
