package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.testkit.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The proxy's command-path faults of the scripted scenarios, on a real server. */
final class TcpProxyIT {

    @Test
    void commandLag_delaysRepliesUntilLifted_andNextCommandTellsWhenAMarkedCommandWent() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                TcpProxy proxy = new TcpProxy(server.host(), server.port())) {
            RedisClient client = RedisClient.create(Connections.viaProxy(server.uri(), proxy.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                CompletableFuture<Long> marked = proxy.nextCommand("marked-key");
                proxy.commandLag(Duration.ofMillis(300));
                long sent = System.nanoTime();
                assertThat(redis.set("marked-key", "1")).isEqualTo("OK");
                long took = System.nanoTime() - sent;
                proxy.commandLag(Duration.ZERO);

                assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
                assertThat(proxy.lateReplies()).isEqualTo(1);
                assertThat(marked).isCompleted();
                assertThat(marked.get()).isBetween(sent, sent + took);
                long again = System.nanoTime();
                assertThat(redis.get("marked-key")).isEqualTo("1");
                assertThat(System.nanoTime() - again)
                        .isLessThan(Duration.ofMillis(250).toNanos());
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void failNext_answersTheMarkedCommandWithAnError_neverForwardsIt_andKeepsTheConnection() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                TcpProxy proxy = new TcpProxy(server.host(), server.port())) {
            RedisClient client = RedisClient.create(Connections.viaProxy(server.uri(), proxy.port()));
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                CompletableFuture<Long> failed = proxy.failNext("refused-key");

                assertThatThrownBy(() -> redis.set("refused-key", "1"))
                        .isInstanceOf(RedisCommandExecutionException.class)
                        .hasMessageContaining("failed by the proxy");
                assertThat(failed).isCompleted();
                // never reached Redis, and only once: the next one goes through on the same connection
                assertThat(server.command("EXISTS", "refused-key")).isEqualTo(0L);
                assertThat(redis.set("refused-key", "2")).isEqualTo("OK");
                assertThat(redis.get("refused-key")).isEqualTo("2");
            } finally {
                client.shutdown();
            }
        }
    }
}
