package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The cluster on the embedded Redis 6.2, which has no CLUSTER ADDSLOTSRANGE: the ADDSLOTS fallback runs here. */
final class ClusterSetupEmbeddedIT {

    @Test
    void clusterOnRedis62_isOk_servesKeys_andReshards() {
        assumeTrue(
                RedisBinary.embeddedResourceName(System.getProperty("os.name"), System.getProperty("os.arch")) != null);
        long started = System.nanoTime();
        try (ClusterSetup cluster =
                ClusterSetup.builder().binary(RedisBinary.embedded()).start()) {
            System.out.printf(
                    "ClusterSetup (3 masters) started in %d ms on %s%n",
                    (System.nanoTime() - started) / 1_000_000,
                    cluster.nodes().get(0).version());
            assertThat(cluster.nodes())
                    .allSatisfy(node -> assertThat(node.version()).startsWith("6.2"));
            assertThat(cluster.nodes().get(1).command("CLUSTER", "INFO").toString())
                    .contains("cluster_state:ok")
                    .contains("cluster_slots_assigned:16384");

            int slot = ClusterSetup.slotOf("{old}");
            RedisServer from = cluster.nodeForSlot(slot);
            from.command("SET", "{old}:k", "v");
            RedisServer to = cluster.masters().stream()
                    .filter(m -> m != from)
                    .findFirst()
                    .orElseThrow();

            assertThat(cluster.migrateSlot(slot, from, to)).isEqualTo(1);

            assertThat(to.command("GET", "{old}:k")).isEqualTo("v");
            assertThatThrownBy(() -> from.command("GET", "{old}:k"))
                    .hasMessage("MOVED " + slot + " 127.0.0.1:" + to.port());
        }
    }
}
