package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class RedisExtensionPerMethodIT {

    private static RedisServer first;
    private static Path firstDir;

    @RegisterExtension
    final RedisExtension redis = RedisExtension.builder()
            .extraArgs("--maxmemory", "2mb", "--maxmemory-policy", "noeviction")
            .build();

    @Test
    @Order(1)
    void firstTest_getsOwnServer(RedisServer server) {
        first = server;
        firstDir = server.dataDir();
        assertThat(server).isSameAs(redis.server());
        server.command("SET", "k", "v");
        assertThat(server.command("CONFIG", "GET", "maxmemory-policy"))
                .isEqualTo(List.of("maxmemory-policy", "noeviction"));
    }

    @Test
    @Order(2)
    void secondTest_getsFreshServer_andPreviousIsClosed(RedisServer server) {
        assertThat(server).isNotSameAs(first);
        assertThat(first.isRunning()).isFalse();
        assertThat(firstDir).doesNotExist();
        assertThat(server.command("GET", "k")).isNull();
    }
}
