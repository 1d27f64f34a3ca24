package dev.dlock.lettuce;

import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Which pub/sub a cluster transport uses, decided once at connect: sharded ({@code SSUBSCRIBE} and
 * {@code SPUBLISH}, Redis 7.0+) only if every node of the cluster, replicas included (any may be
 * promoted), reports {@code redis_version} 7.0 or later; classic otherwise (a 6.2 node, a mixed
 * cluster in a rolling upgrade, or a node that did not answer {@code INFO server} within the command
 * timeout), which works on every version. Nodes the cluster flags {@code fail} or {@code noaddr} are
 * not asked.
 *
 * @param sharded true for sharded pub/sub
 * @param reason why, for the log
 */
record PubSubChoice(boolean sharded, String reason) {

    /**
     * Asks every node of the topology the connection knows for its version, in parallel.
     *
     * @param connection the cluster connection
     * @param timeout how long to wait for all answers
     * @return the choice
     */
    static PubSubChoice probe(StatefulRedisClusterConnection<String, String> connection, Duration timeout) {
        Map<String, CompletableFuture<String>> asked = new LinkedHashMap<>();
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.FAIL) || node.is(RedisClusterNode.NodeFlag.NOADDR)) {
                continue; // not serving; it rejoins as a replica, and may not hold this choice back
            }
            String host = node.getUri().getHost();
            int port = node.getUri().getPort();
            asked.put(
                    host + ":" + port,
                    connection
                            .getConnectionAsync(host, port, ConnectionIntent.WRITE)
                            .thenCompose(c -> c.async().info("server"))
                            .toCompletableFuture());
        }
        long until = System.nanoTime() + timeout.toNanos();
        Map<String, String> versions = new LinkedHashMap<>();
        for (Map.Entry<String, CompletableFuture<String>> answer : asked.entrySet()) {
            String version;
            try {
                long left = Math.max(0, until - System.nanoTime());
                version = versionIn(answer.getValue().get(left, TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                version = null;
            } catch (Exception e) {
                version = null;
            }
            versions.put(answer.getKey(), version);
        }
        return of(versions);
    }

    /**
     * The choice for the nodes' versions.
     *
     * @param versions {@code redis_version} per node ({@code host:port}), null where unknown
     * @return sharded only if there is a node and every one is 7.0 or later
     */
    static PubSubChoice of(Map<String, String> versions) {
        if (versions.isEmpty()) {
            return new PubSubChoice(false, "no cluster node is known");
        }
        for (Map.Entry<String, String> node : versions.entrySet()) {
            if (node.getValue() == null) {
                return new PubSubChoice(false, "node " + node.getKey() + " did not report its version");
            }
            if (!atLeast7(node.getValue())) {
                return new PubSubChoice(
                        false, "node " + node.getKey() + " runs Redis " + node.getValue() + ", before 7.0");
            }
        }
        return new PubSubChoice(true, "every node of " + versions.size() + " runs Redis 7.0 or later");
    }

    /** Whether a version such as {@code 7.0.15} is 7.0 or later; false for what does not parse. */
    static boolean atLeast7(String version) {
        int dot = version.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot)) >= 7;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The {@code redis_version} of an {@code INFO server} reply, or null. */
    static String versionIn(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).strip();
            }
        }
        return null;
    }
}
