package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.RespConnection;
import dev.dlock.testkit.SentinelSetup;
import dev.dlock.testkit.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The partition of {@code failover-partition} on real processes: a Sentinel deployment whose data nodes are fronted by
 * {@link TcpProxy proxies}, the master's front cut but for one named client's connection, the failover, the heal.
 */
final class PartitionedSentinelIT {

    private final Map<Integer, TcpProxy> fronts = new ConcurrentHashMap<>();
    private SentinelSetup setup;

    @AfterEach
    void close() {
        if (setup != null) {
            setup.close();
        }
        fronts.values().forEach(TcpProxy::close);
    }

    private SentinelSetup start() {
        setup = SentinelSetup.builder()
                .replicas(1)
                .masterName("partitioned")
                .fronted(port -> {
                    try {
                        TcpProxy front = new TcpProxy("127.0.0.1", port);
                        fronts.put(port, front);
                        return front.port();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })
                .start();
        return setup;
    }

    @Test
    void frontedDeployment_isKnownOnlyByItsFronts() {
        SentinelSetup setup = start();
        RedisServer master = setup.initialMaster();
        RedisServer replica = setup.initialReplicas().get(0);
        int masterFront = fronts.get(master.port()).port();
        int replicaFront = fronts.get(replica.port()).port();

        assertThat(setup.advertisedPort(master)).isEqualTo(masterFront);
        assertThat(setup.currentMaster()).isSameAs(master);
        assertThat(setup.nodeAdvertisedAt(replicaFront)).isSameAs(replica);
        for (RedisServer sentinel : setup.sentinels()) {
            assertThat(String.valueOf(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "partitioned")))
                    .isEqualTo("[127.0.0.1, " + masterFront + "]");
        }
        assertThat(info(replica).get("master_port")).isEqualTo(Integer.toString(masterFront));
        assertThat(info(master).get("slave0")).contains("port=" + replicaFront + ",");
        assertThatThrownBy(() -> setup.holdBack(replica)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void cutFront_sparesNamedConnections_refusesTheRest_andTheSentinelsPromoteTheReplicaByItsFront() throws Exception {
        SentinelSetup setup = start();
        RedisServer master = setup.initialMaster();
        RedisServer replica = setup.initialReplicas().get(0);
        TcpProxy front = fronts.get(master.port());
        try (RespConnection minority = RespConnection.open("127.0.0.1", front.port(), null, Duration.ofSeconds(5));
                RespConnection majority = RespConnection.open("127.0.0.1", front.port(), null, Duration.ofSeconds(5))) {
            minority.call("CLIENT", "SETNAME", "minority");
            Set<Integer> survivors = new HashSet<>();
            for (String line : String.valueOf(master.command("CLIENT", "LIST")).split("\\R")) {
                if (line.contains(" name=minority ")) {
                    String addr = line.replaceAll(".*\\baddr=(\\S+).*", "$1");
                    survivors.add(Integer.parseInt(addr.substring(addr.lastIndexOf(':') + 1)));
                }
            }
            assertThat(survivors).hasSize(1);

            front.cut(survivors);

            assertThatThrownBy(() -> majority.call("PING")).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> {
                        try (RespConnection late =
                                RespConnection.open("127.0.0.1", front.port(), null, Duration.ofSeconds(2))) {
                            late.call("PING");
                        }
                    })
                    .isInstanceOf(IOException.class);
            RedisServer promoted = setup.awaitFailover(Timing.scaled(Duration.ofSeconds(30)));
            assertThat(promoted).isSameAs(replica);
            // the split brain: the old master still takes the minority's writes, which the new master never sees
            assertThat(minority.call("SET", "split", "old")).isEqualTo("OK");
            assertThat(((List<?>) minority.call("ROLE")).get(0)).isEqualTo("master");
            int replicaFront = fronts.get(replica.port()).port();
            for (RedisServer sentinel : setup.sentinels()) {
                assertThat(String.valueOf(sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "partitioned")))
                        .isEqualTo("[127.0.0.1, " + replicaFront + "]");
            }

            front.heal();
            setup.rejoin(master);
            setup.awaitReplicasInSync();
            assertThat(info(master).get("master_port")).isEqualTo(Integer.toString(replicaFront));
            assertThat(master.command("GET", "split")).isNull();
        }
    }

    private static Map<String, String> info(RedisServer node) {
        Map<String, String> fields = new HashMap<>();
        for (String line : String.valueOf(node.command("INFO", "replication")).split("\\R")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }
}
