package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.testkit.ClusterSetup;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/** The topology phases' logic behind the report: targets, names spread over a cluster, goals, the page splice. */
final class TopologiesTest {

    @Test
    void target_encodesForTheClientProcesses_andDecodesToTheSame() {
        Target sentinel = new Target(Topology.SENTINEL, List.of("127.0.0.1:1", "127.0.0.1:2"), "dlock");
        assertThat(Target.decode(sentinel.encode())).isEqualTo(sentinel);
        Target redlock = new Target(Topology.REDLOCK_3, List.of("h:1", "h:2", "h:3"), "");
        assertThat(Target.decode(redlock.encode())).isEqualTo(redlock);
        assertThatThrownBy(() -> Target.decode("STANDALONE;h:1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("STANDALONE;h:1");
    }

    @Test
    void target_givesEachTopologyTheUriDlockTakes() {
        assertThat(Target.standalone("127.0.0.1", 7000).dlockUri()).isEqualTo("redis://127.0.0.1:7000");
        assertThat(new Target(Topology.SENTINEL, List.of("h:1", "h:2"), "m").dlockUri())
                .isEqualTo("redis-sentinel://h:1,h:2#m");
        assertThat(new Target(Topology.CLUSTER, List.of("h:1", "h:2"), "").dlockUri())
                .isEqualTo("redis-cluster://h:1,h:2");
        Target redlock = new Target(Topology.REDLOCK_5, List.of("h:1", "h:2", "h:3", "h:4", "h:5"), "");
        assertThat(redlock.redisUris())
                .containsExactly("redis://h:1", "redis://h:2", "redis://h:3", "redis://h:4", "redis://h:5");
        assertThatThrownBy(redlock::dlockUri).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void target_refusesStandaloneOnlyClientsOnATopology() {
        Target standalone = Target.standalone("127.0.0.1", 7000);
        assertThat(standalone.host()).isEqualTo("127.0.0.1");
        assertThat(standalone.port()).isEqualTo(7000);
        Target cluster = new Target(Topology.CLUSTER, List.of("h:1"), "");
        assertThatThrownBy(cluster::port)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CLUSTER");
        assertThatThrownBy(() -> new Target(Topology.SENTINEL, List.of("h:1"), ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("master name");
    }

    @Test
    void topologies_parseAllNamesAndNone_andNameAnUnknownOne() {
        assertThat(Topology.parse("all"))
                .isEqualTo(EnumSet.of(Topology.SENTINEL, Topology.CLUSTER, Topology.REDLOCK_3, Topology.REDLOCK_5));
        assertThat(Topology.parse("Sentinel, redlock5")).containsExactly(Topology.SENTINEL, Topology.REDLOCK_5);
        assertThat(Topology.parse("none")).isEmpty();
        assertThatThrownBy(() -> Topology.parse("standalone"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'standalone'")
                .hasMessageContaining("(expected all, none, sentinel, cluster, redlock3 or redlock5)");
    }

    @Test
    void spreadNames_landOnTheWantedMaster() {
        IntUnaryOperator thirds = slot -> slot * 3 / ClusterSetup.SLOTS;
        for (int i = 0; i < 16; i++) {
            String name = SpreadNames.name("bench-W2-1-" + i, i % 3, thirds);
            assertThat(thirds.applyAsInt(ClusterSetup.slotOf(name))).as(name).isEqualTo(i % 3);
            assertThat(name).startsWith("bench-W2-1-" + i + "-");
        }
        assertThatThrownBy(() -> SpreadNames.name("x", 3, thirds))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("master 3");
    }

    @Test
    void topologyGoals_takeRatiosWithinEachRun_onlyForTheTopologiesMeasured() {
        List<Measurement> ms = List.of(
                pairs(Topology.SENTINEL, Workload.W1, Peer.DLOCK_ACKS, 300),
                pairs(Topology.SENTINEL, Workload.W1, Peer.REDISSON, 100),
                pairs(Topology.SENTINEL, Workload.W1, Peer.DLOCK_ACKS, 100),
                pairs(Topology.SENTINEL, Workload.W1, Peer.REDISSON, 100),
                pairs(Topology.SENTINEL, Workload.W1, Peer.DLOCK_ACKS, 1000),
                pairs(Topology.SENTINEL, Workload.W1, Peer.REDISSON, 500));
        Map<Topology, Runs> byTopology = Map.of(Topology.SENTINEL, Runs.of(ms, Topology.SENTINEL, 3));
        List<Goals.Goal> goals = Goals.checkTopologies(byTopology);
        assertThat(goals).noneMatch(g -> g.text().startsWith("Cluster"));
        Goals.Goal w1 = goals.stream()
                .filter(g -> g.text().equals("Sentinel W1 pairs/s ≥ 1.5× Redisson (dlock, replicaAcks(1))"))
                .findFirst()
                .orElseThrow();
        assertThat(w1.measured()).isEqualTo(new Spread(2.0, 1.0, 3.0, 3));
        assertThat(w1.met()).isTrue();
        assertThat(w1.metByEveryRun()).isFalse();
        Goals.Goal w5 = goals.stream()
                .filter(g -> g.text().startsWith("Sentinel W5 pairs/s ≥ 1.5× Redisson (dlock,"))
                .findFirst()
                .orElseThrow();
        assertThat(w5.known()).isFalse();
    }

    @Test
    void runsOfATopology_leaveOutTheOthers() {
        List<Measurement> ms = List.of(
                pairs(Topology.STANDALONE, Workload.W1, Peer.DLOCK, 5),
                pairs(Topology.REDLOCK_3, Workload.W1, Peer.DLOCK, 7));
        assertThat(Runs.of(ms, Topology.REDLOCK_3, 1).values(Workload.W1, Peer.DLOCK, Metric.PAIRS_PER_SECOND))
                .containsExactly(7.0);
        assertThat(Runs.of(ms, Topology.REDLOCK_5, 1).all()).isEmpty();
    }

    @Test
    void splice_replacesThePartMeasured_andKeepsTheOther() {
        String first = Report.splice("", "main 1\n\n", null);
        assertThat(first).isEqualTo("main 1\n\n" + Report.HISTORY_POINTER);
        String withTopologies = Report.splice(first, null, "## Topologies 1\n\n");
        assertThat(withTopologies)
                .isEqualTo("main 1\n\n" + Report.TOPOLOGIES_MARK + "## Topologies 1\n\n" + Report.HISTORY_POINTER);
        String newMain = Report.splice(withTopologies, "main 2\n\n", null);
        assertThat(newMain)
                .isEqualTo("main 2\n\n" + Report.TOPOLOGIES_MARK + "## Topologies 1\n\n" + Report.HISTORY_POINTER);
        assertThat(Report.splice(newMain, null, null)).isEqualTo(newMain);
        assertThat(Report.splice(newMain, null, "## Topologies 2\n\n"))
                .isEqualTo("main 2\n\n" + Report.TOPOLOGIES_MARK + "## Topologies 2\n\n" + Report.HISTORY_POINTER);
    }

    @Test
    void redisDelta_aReplicasAcknowledgementsAreNoClientCommands() {
        CommandOrigins o = new CommandOrigins();
        o.count("+1 [0 127.0.0.1:1] \"evalsha\"");
        o.count("+1 [0 127.0.0.1:1] \"wait\"");
        RedisStats before = new RedisStats(Map.of(), 0);
        RedisStats after = new RedisStats(Map.of("evalsha", 10L, "wait", 5L, "replconf", 7L), 0);
        RedisStats.Delta d = after.since(before);
        assertThat(d.total()).isEqualTo(22);
        assertThat(d.topLevel(o)).isEqualTo(15.0);
        assertThat(d.topLevelMix(o, 5)).isEqualTo("evalsha 2.00, wait 1.00");
    }

    private static Measurement pairs(Topology t, Workload w, Peer p, double pairsPerSecond) {
        return new Measurement(t, w, p).put(Metric.PAIRS_PER_SECOND, pairsPerSecond);
    }
}
