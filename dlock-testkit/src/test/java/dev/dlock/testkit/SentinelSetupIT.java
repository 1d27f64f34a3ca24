package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** One setup for the class, faults in order: started, killed master failed over, manual failover back. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class SentinelSetupIT {

    private static final Duration FAILOVER = Timing.scaled(Duration.ofSeconds(30));

    @RegisterExtension
    static final TopologyExtension<SentinelSetup> sentinel =
            SentinelSetup.builder().replicas(2).masterName("orders").extension();

    @Test
    @Order(1)
    void start_givesMasterReplicasAndSentinels_thatKnowEachOther(SentinelSetup setup) {
        assertThat(setup).isSameAs(sentinel.get());
        assertThat(setup.masterName()).isEqualTo("orders");
        assertThat(setup.dataNodes()).hasSize(3);
        assertThat(setup.sentinels()).hasSize(3);
        List<RedisServer> sentinels = setup.sentinels();
        assertThat(setup.uri())
                .isEqualTo("redis-sentinel://127.0.0.1:" + sentinels.get(0).port() + ",127.0.0.1:"
                        + sentinels.get(1).port() + ",127.0.0.1:"
                        + sentinels.get(2).port() + "#orders");
        assertThat(setup.currentMaster()).isSameAs(setup.initialMaster());
        for (RedisServer node : setup.sentinels()) {
            assertThat(node.command("SENTINEL", "MASTER", "orders").toString()).contains("num-other-sentinels, 2");
            assertThat(node.dataDir().resolve("sentinel.conf")).exists();
        }

        setup.initialMaster().command("SET", "k", "v");
        setup.awaitReplicasInSync();
        for (RedisServer replica : setup.initialReplicas()) {
            assertThat(replica.command("GET", "k")).isEqualTo("v");
            assertThatThrownBy(() -> replica.command("SET", "x", "1"))
                    .isInstanceOfSatisfying(
                            RedisErrorReply.class, e -> assertThat(e.prefix()).isEqualTo("READONLY"));
        }
    }

    @Test
    @Order(2)
    void killedMaster_isFailedOver_toAReplica(SentinelSetup setup) {
        RedisServer old = setup.currentMaster();
        long started = System.nanoTime();

        old.kill();
        RedisServer promoted = setup.awaitFailover(FAILOVER);

        System.out.printf("sentinel failover after SIGKILL of the master took %d ms%n", millisSince(started));
        assertThat(promoted).isNotSameAs(old).isIn(setup.initialReplicas());
        assertThat(setup.currentMaster()).isSameAs(promoted);
        assertThat(promoted.command("GET", "k")).isEqualTo("v");
        assertThat(promoted.command("SET", "after", "1")).isEqualTo("OK");
    }

    @Test
    @Order(3)
    void rejoinedOldMaster_syncs_andManualFailover_movesTheMasterAgain(SentinelSetup setup) {
        RedisServer old = setup.initialMaster();
        RedisServer master = setup.currentMaster();

        setup.rejoin(old);
        setup.awaitReplicasInSync();
        assertThat(old.command("GET", "after")).isEqualTo("1");

        long started = System.nanoTime();
        RedisServer next = setup.failover();

        System.out.printf("SENTINEL FAILOVER took %d ms%n", millisSince(started));
        assertThat(next).isNotSameAs(master);
        assertThat(setup.currentMaster()).isSameAs(next);
        assertThat(NodeSupport.info(next, "replication")).containsEntry("role", "master");
    }

    @Test
    @Order(4)
    void sentinels_areKillableAndRestartable_andKeepTheirState(SentinelSetup setup) {
        RedisServer first = setup.sentinels().get(0);
        RedisServer master = setup.currentMaster();
        long pid = first.pid();

        first.restart();

        assertThat(first.pid()).isNotEqualTo(pid);
        assertThat(setup.currentMaster()).isSameAs(master);
        assertThat(first.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "orders"))
                .isEqualTo(List.of("127.0.0.1", Integer.toString(master.port())));
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }
}
