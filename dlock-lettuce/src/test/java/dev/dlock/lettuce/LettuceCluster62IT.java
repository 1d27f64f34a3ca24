package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.ClusterSetup;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The fallback on a Redis 6.2 cluster (the testkit's embedded 6.2 binary), which has no sharded
 * pub/sub: the transport subscribes classic, and hand-offs publish with {@code PUBLISH}.
 */
final class LettuceCluster62IT {
    private static final Pattern CALLS = Pattern.compile("cmdstat_(s?publish):calls=(\\d+)");

    @Test
    void aRedis62Cluster_isSubscribedClassic_andHandsOffWithPublish() throws Exception {
        Optional<Path> binary = RedisServer.embeddedBinary();
        assumeTrue(binary.isPresent(), "embedded-redis ships no Redis 6.2 binary for this OS and architecture");
        try (ClusterSetup cluster = ClusterSetup.builder().binary(binary.get()).start()) {
            assertThat(cluster.nodes())
                    .allSatisfy(node -> assertThat(node.version()).startsWith("6.2"));
            try (Transport transport = new LettuceTransportFactory()
                    .connect(TransportConfig.of(cluster.seedUri(), Timing.scaled(Duration.ofSeconds(2)), "probe"))) {
                assertThat(transport.shardedPubSub()).isFalse();
            }
            cluster.nodes().forEach(node -> node.command("CONFIG", "RESETSTAT"));
            try (LockClient holder = client(cluster);
                    LockClient waiter = client(cluster)) {
                Lease held = holder.lock("old").acquire();
                CompletableFuture<Lease> waiting =
                        waiter.lock("old").acquireAsync(Timing.scaled(Duration.ofSeconds(10)));
                Failovers.awaitQueued(cluster.nodeForSlot(ClusterSetup.slotOf("dlock:{old}")), "old", waiting);
                String channel = "dlock:{old}:wake:" + waiter.clientId();
                long subscribers = 0;
                for (RedisServer node : cluster.nodes()) {
                    subscribers += (Long) ((List<?>) node.command("PUBSUB", "NUMSUB", channel)).get(1);
                }
                assertThat(subscribers).as("classic subscribers of %s", channel).isEqualTo(1);
                held.release();
                waiting.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS)
                        .release();
                long publishes = 0;
                for (RedisServer node : cluster.nodes()) {
                    publishes += calls(node, "publish");
                    assertThat(calls(node, "spublish")).isZero();
                }
                assertThat(publishes).as("PUBLISH calls of the hand-off").isGreaterThanOrEqualTo(1);
            }
        }
    }

    private static LockClient client(ClusterSetup cluster) {
        return LockClient.builder()
                .redisUri(cluster.seedUri())
                .transport(new LettuceTransportFactory())
                .commandTimeout(Timing.scaled(Duration.ofSeconds(1)))
                .build();
    }

    private static long calls(RedisServer node, String command) {
        Matcher m = CALLS.matcher(String.valueOf(node.command("INFO", "commandstats")));
        while (m.find()) {
            if (m.group(1).equals(command)) {
                return Long.parseLong(m.group(2));
            }
        }
        return 0;
    }
}
