package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

/** The fenced scripts on a real server: a read-write lock's shared reads beside the exclusive reads and writes. */
final class FencedResourceIT {

    @Test
    void sharedRead_overlappingReadersInAnyTokenOrder_areAcceptedWithoutRaisingTheFence_butAStaleReaderIsRefused() {
        try (RedisServer server = RedisServer.builder().start()) {
            RedisClient client = RedisClient.create(server.uri());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                RedisCommands<String, String> redis = connection.sync();
                FencedResource resource = new FencedResource("test:res:{rw}", true);
                assertThat(resource.read(redis, 5, "w-5r", false)).isEmpty();
                assertThat(resource.write(redis, 5, "w-5w", "w-5w,")).isTrue();

                // two readers that hold together: the newer reads first, the older is not refused
                assertThat(resource.read(redis, 7, "r-7r", true)).isEqualTo("w-5w,");
                assertThat(resource.read(redis, 6, "r-6r", true)).isEqualTo("w-5w,");
                // a writer after them raises the fence; the reader of token 6 is stale from then on
                assertThat(resource.read(redis, 8, "w-8r", false)).isEqualTo("w-5w,");
                assertThat(resource.read(redis, 6, "r-6r2", true)).isNull();

                FencedResource.Snapshot snapshot = resource.snapshot(redis);
                assertThat(snapshot.acceptedTokens()).containsExactly(5L, 5L, 8L);
                assertThat(snapshot.rejections()).containsExactly("read:6:8:r-6r2");
            } finally {
                client.shutdown();
            }
        }
    }
}
