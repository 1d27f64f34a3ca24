package dev.dlock.bench;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What a client connects to: the topology and its entry points, as every peer and the W5 client processes need it.
 * Standalone: one node; Sentinel: the sentinels and the master's name; Cluster: the seed nodes; Redlock: one node per
 * independent master.
 *
 * @param topology the topology
 * @param nodes {@code host:port} of each entry point
 * @param masterName the master name the sentinels monitor, or empty
 */
record Target(Topology topology, List<String> nodes, String masterName) {

    Target {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a target needs at least one node");
        }
        if (topology == Topology.SENTINEL && masterName.isEmpty()) {
            throw new IllegalArgumentException("a Sentinel target needs the master name");
        }
    }

    static Target standalone(String host, int port) {
        return new Target(Topology.STANDALONE, List.of(host + ":" + port), "");
    }

    /** The one URI of a dlock client (standalone, Sentinel or Cluster). */
    String dlockUri() {
        return switch (topology) {
            case STANDALONE -> "redis://" + nodes.get(0);
            case SENTINEL -> "redis-sentinel://" + String.join(",", nodes) + "#" + masterName;
            case CLUSTER -> "redis-cluster://" + String.join(",", nodes);
            case REDLOCK_3, REDLOCK_5 ->
                throw new IllegalStateException("a Redlock target has one URI per node: redisUris()");
        };
    }

    /** {@code redis://host:port} of each node, as Redisson and {@code LockClient.Builder.redlock} take them. */
    List<String> redisUris() {
        return nodes.stream().map(n -> "redis://" + n).toList();
    }

    /** The host of the single node; for the clients that only run on a standalone server. */
    String host() {
        requireStandalone();
        return nodes.get(0).substring(0, nodes.get(0).lastIndexOf(':'));
    }

    /** The port of the single node; for the clients that only run on a standalone server. */
    int port() {
        requireStandalone();
        return Integer.parseInt(nodes.get(0).substring(nodes.get(0).lastIndexOf(':') + 1));
    }

    private void requireStandalone() {
        if (topology != Topology.STANDALONE) {
            throw new IllegalStateException("this client runs on a standalone server only, not on " + topology);
        }
    }

    /** One argument for a W5 client process: {@code TOPOLOGY;host:port,host:port;masterName}. */
    String encode() {
        return topology.name() + ";" + String.join(",", nodes) + ";" + masterName;
    }

    /**
     * Reads what {@link #encode()} wrote.
     *
     * @param text the encoded target
     * @return the target
     * @throws IllegalArgumentException if {@code text} is not an encoded target
     */
    static Target decode(String text) {
        String[] f = text.split(";", -1);
        if (f.length != 3) {
            throw new IllegalArgumentException("not an encoded target: " + text);
        }
        return new Target(Topology.valueOf(f[0]), List.of(f[1].split(",")), f[2]);
    }

    @Override
    public String toString() {
        return topology.option + " " + nodes.stream().collect(Collectors.joining(","))
                + (masterName.isEmpty() ? "" : "#" + masterName);
    }
}
