package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

@Isolated // sets the redis-server binary JVM-wide
final class EmbeddedRedisIT {

    @Test
    void embeddedFallback_viaSystemProperty_startsRedis62() {
        assumeTrue(System.getenv(RedisBinary.ENV) == null, "DLOCK_REDIS_SERVER overrides the system property");
        assumeTrue(
                RedisBinary.embeddedResourceName(System.getProperty("os.name"), System.getProperty("os.arch")) != null);
        String previous = System.getProperty(RedisBinary.PROPERTY);
        System.setProperty(RedisBinary.PROPERTY, "embedded");
        try (RedisServer server =
                RedisServer.builder().aof(true).password("s3cret").start()) {
            assertThat(server.version()).startsWith("6.2");
            assertThat(server.binary().getFileName().toString()).startsWith("redis-server-6.2");
            assertThat(server.command("PING")).isEqualTo("PONG");

            server.command("SET", "k", "v");
            server.restart();
            assertThat(server.command("GET", "k")).isEqualTo("v");
        }
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.version()).startsWith("6.2");
            assertThat(server.command("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
        } finally {
            if (previous == null) {
                System.clearProperty(RedisBinary.PROPERTY);
            } else {
                System.setProperty(RedisBinary.PROPERTY, previous);
            }
        }
    }

    @Test
    void embeddedBinary_isExtractedOncePerJvm() {
        assumeTrue(
                RedisBinary.embeddedResourceName(System.getProperty("os.name"), System.getProperty("os.arch")) != null);
        assertThat(RedisBinary.embedded()).isSameAs(RedisBinary.embedded());
    }
}
