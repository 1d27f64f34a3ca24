package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A pub/sub connection whose first opening failed (the server was down, or a failover was under way) is opened again
 * on the next subscribe: the failure is that call's, not the transport's for good. Seen in {@code dlock verify --only
 * failover-kill-acked}: a client whose first wait fell into the failover failed every later acquire that had to wait,
 * with the first open's "Unable to connect" to the killed master, for the rest of the run.
 */
final class LettucePubSubOpenRetryIT {

    @Test
    void subscribe_afterAFailedFirstOpen_opensAgain() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new LettuceTransportFactory()
                        .connect(TransportConfig.of(server.uri(), Timing.scaled(Duration.ofSeconds(1)), "retry"))) {
            server.stop();
            assertThatThrownBy(() -> transport.subscribe("c").get(30, TimeUnit.SECONDS))
                    .hasMessageContaining("Unable to connect");

            server.start();

            transport.subscribe("c").get(30, TimeUnit.SECONDS);
            assertThat(server.command("PUBSUB", "NUMSUB", "c").toString()).isEqualTo("[c, 1]");
        }
    }
}
