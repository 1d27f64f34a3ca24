package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class IndependentMastersIT {

    @RegisterExtension
    static final TopologyExtension<IndependentMasters> redlock = IndependentMasters.builder()
            .masters(3)
            .aof(true)
            .aof(2, false)
            .password("s3cret")
            .extension();

    @Test
    @Order(1)
    void mastersAreIndependent_withTheirOwnPortsAndUris(IndependentMasters masters) {
        assertThat(masters.size()).isEqualTo(3);
        List<RedisServer> servers = masters.servers();
        assertThat(servers).extracting(RedisServer::port).doesNotHaveDuplicates();
        assertThat(masters.uris())
                .containsExactly(
                        servers.get(0).uri(),
                        servers.get(1).uri(),
                        servers.get(2).uri())
                .allSatisfy(uri -> assertThat(uri).startsWith("redis://:s3cret@127.0.0.1:"));

        masters.server(0).command("SET", "lock", "a");

        assertThat(masters.server(1).command("GET", "lock")).isNull();
        assertThat(NodeSupport.info(masters.server(1), "replication")).containsEntry("connected_slaves", "0");
    }

    @Test
    @Order(2)
    void restart_keepsDataWithAof_andLosesItWithout(IndependentMasters masters) {
        for (RedisServer server : masters.servers()) {
            server.command("SET", "lock", "token");
        }
        assertThat(masters.servers()).extracting(RedisServer::isAof).containsExactly(true, true, false);

        masters.server(0).restart();
        masters.server(2).restart();

        assertThat(masters.server(0).command("GET", "lock")).isEqualTo("token");
        assertThat(masters.server(2).command("GET", "lock")).isNull();
    }

    @Test
    @Order(3)
    void onePausedOrKilled_leavesTheOthersServing(IndependentMasters masters) {
        masters.server(0).pause();
        masters.server(1).kill();
        try {
            assertThat(masters.server(2).command("PING")).isEqualTo("PONG");
            assertThatThrownBy(() -> masters.server(0).command(Duration.ofMillis(200), "PING"))
                    .isInstanceOf(UncheckedIOException.class);
            assertThatThrownBy(() -> masters.server(1).command("PING")).isInstanceOf(UncheckedIOException.class);
        } finally {
            masters.server(0).resume();
            masters.server(1).start();
        }
        assertThat(masters.server(1).command("GET", "lock")).isEqualTo("token");
    }
}
