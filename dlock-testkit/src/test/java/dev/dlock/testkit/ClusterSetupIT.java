package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** One cluster of 3 masters with a replica each for the class, changed in order: read, resharded, failed over. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class ClusterSetupIT {

    private static ClusterSetup cluster;

    @BeforeAll
    static void startCluster() {
        long started = System.nanoTime();
        cluster = ClusterSetup.builder().replicasPerMaster(1).start();
        System.out.printf(
                "ClusterSetup (3 masters, 3 replicas) started in %d ms on %s%n",
                (System.nanoTime() - started) / 1_000_000,
                cluster.nodes().get(0).version());
    }

    @AfterAll
    static void closeCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void start_isOkOnEveryNode_withSlotsSharedByThreeMasters() {
        List<RedisServer> nodes = cluster.nodes();
        assertThat(nodes).hasSize(6);
        assertThat(cluster.seedUri())
                .startsWith("redis-cluster://127.0.0.1:" + nodes.get(0).port() + ",127.0.0.1:");
        assertThat(cluster.seedUri().split(",")).hasSize(6);
        for (RedisServer node : nodes) {
            assertThat(node.port()).isLessThan(22768);
            assertThat(node.command("CLUSTER", "INFO").toString())
                    .contains("cluster_state:ok")
                    .contains("cluster_slots_assigned:16384")
                    .contains("cluster_known_nodes:6");
        }
        assertThat(cluster.masters()).containsExactlyElementsOf(nodes.subList(0, 3));
        for (int m = 0; m < 3; m++) {
            assertThat(cluster.replicasOf(nodes.get(m))).containsExactly(nodes.get(m + 3));
        }
        assertThat(cluster.nodeForSlot(0)).isSameAs(nodes.get(0));
        assertThat(cluster.nodeForSlot(ClusterSetup.SLOTS - 1)).isSameAs(nodes.get(2));
    }

    @Test
    @Order(2)
    void slotOf_matchesClusterKeyslot() {
        RedisServer node = cluster.nodes().get(0);
        List<String> keys = new ArrayList<>(List.of(
                "",
                "a",
                "lock:orders",
                "123456789",
                "{user1000}.following",
                "{user1000}.followers",
                "foo{}{bar}",
                "foo{{bar}}zap",
                "foo{bar}{zap}",
                "{",
                "}{",
                "grüße:ключ"));
        for (int i = 0; i < 50; i++) {
            keys.add("key-" + i * 7919);
        }
        for (String key : keys) {
            assertThat((long) ClusterSetup.slotOf(key)).as(key).isEqualTo(node.command("CLUSTER", "KEYSLOT", key));
        }
    }

    @Test
    @Order(3)
    void keyWrittenThroughItsSlotOwner_isReadThere_andOtherMastersRedirect() {
        String key = "lock:orders";
        int slot = ClusterSetup.slotOf(key);
        RedisServer owner = cluster.nodeForSlot(slot);

        assertThat(owner.command("SET", key, "token")).isEqualTo("OK");

        assertThat(owner.command("GET", key)).isEqualTo("token");
        for (RedisServer master : cluster.masters()) {
            if (master != owner) {
                assertThatThrownBy(() -> master.command("GET", key))
                        .isInstanceOf(RedisErrorReply.class)
                        .hasMessage("MOVED " + slot + " 127.0.0.1:" + owner.port());
            }
        }
    }

    @Test
    @Order(4)
    void migrateSlot_movesItsKeys_andTheOldOwnerRedirectsToTheNewOne() {
        int slot = ClusterSetup.slotOf("{reshard}");
        RedisServer from = cluster.nodeForSlot(slot);
        RedisServer to =
                cluster.masters().stream().filter(m -> m != from).findFirst().orElseThrow();
        for (int i = 0; i < 150; i++) {
            from.command("SET", "{reshard}:" + i, Integer.toString(i));
        }

        int moved = cluster.migrateSlot(slot, from, to);

        assertThat(moved).isEqualTo(150);
        assertThat(cluster.nodeForSlot(slot)).isSameAs(to);
        assertThat(to.command("GET", "{reshard}:149")).isEqualTo("149");
        assertThat(to.command("CLUSTER", "COUNTKEYSINSLOT", Integer.toString(slot)))
                .isEqualTo(150L);
        assertThatThrownBy(() -> from.command("GET", "{reshard}:0"))
                .isInstanceOf(RedisErrorReply.class)
                .hasMessage("MOVED " + slot + " 127.0.0.1:" + to.port());
        for (RedisServer node : cluster.nodes()) {
            assertThat(node.command("CLUSTER", "INFO").toString()).contains("cluster_state:ok");
        }
    }

    @Test
    @Order(5)
    void failover_promotesTheReplica_andTheOldMasterFollowsIt() {
        String key = "lock:orders";
        RedisServer master = cluster.nodeForSlot(ClusterSetup.slotOf(key));
        RedisServer replica = cluster.replicasOf(master).get(0);
        long started = System.nanoTime();

        RedisServer promoted = cluster.failover(master);

        System.out.printf("CLUSTER FAILOVER took %d ms%n", (System.nanoTime() - started) / 1_000_000);
        assertThat(promoted).isSameAs(replica);
        assertThat(cluster.nodeForSlot(ClusterSetup.slotOf(key))).isSameAs(promoted);
        assertThat(cluster.masters()).contains(promoted).doesNotContain(master);
        assertThat(cluster.replicasOf(promoted)).containsExactly(master);
        assertThat(promoted.command("GET", key)).isEqualTo("token");
        assertThat(NodeSupport.info(master, "replication")).containsEntry("role", "slave");
        cluster.awaitStateOk(Timing.scaled(Duration.ofSeconds(10)));
    }

    @Test
    @Order(6)
    void killedMaster_isReplacedByItsReplica() {
        RedisServer master = cluster.nodeForSlot(0);
        RedisServer replica = cluster.replicasOf(master).get(0);
        long started = System.nanoTime();

        master.kill();
        RedisServer owner = cluster.awaitFailover(master, Timing.scaled(Duration.ofSeconds(30)));

        System.out.printf(
                "cluster failover after SIGKILL of a master took %d ms%n", (System.nanoTime() - started) / 1_000_000);
        assertThat(owner).isSameAs(replica);
        assertThat(cluster.nodeForSlot(0)).isSameAs(replica);
        assertThat(NodeSupport.info(replica, "replication")).containsEntry("role", "master");
        assertThat(replica.command("CLUSTER", "INFO").toString()).contains("cluster_state:ok");
    }
}
