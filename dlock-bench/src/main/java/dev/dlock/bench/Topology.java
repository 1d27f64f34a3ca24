package dev.dlock.bench;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where the peers' locks live: the one standalone server of the main suite, or one of the topology phases ({@code
 * --topologies}), each on servers the testkit starts for it. A topology phase measures a few workloads only, with the
 * peers that run there.
 */
enum Topology {
    STANDALONE("standalone", "Standalone", "one standalone redis-server", List.of(), List.of()),
    SENTINEL(
            "sentinel",
            "Sentinel",
            "Sentinel: a master, one replica and three sentinels",
            List.of(Workload.W1, Workload.W5),
            List.of(Peer.DLOCK_ACKS, Peer.DLOCK_LETTUCE_ACKS, Peer.REDISSON, Peer.DLOCK, Peer.DLOCK_LETTUCE)),
    CLUSTER(
            "cluster",
            "Cluster",
            "Cluster: three masters, no replicas",
            List.of(Workload.W2),
            List.of(Peer.DLOCK_LETTUCE, Peer.REDISSON)),
    REDLOCK_3(
            "redlock3",
            "Redlock ×3",
            "Redlock: three independent masters",
            List.of(Workload.W1, Workload.W5),
            List.of(Peer.DLOCK, Peer.DLOCK_LETTUCE, Peer.REDISSON_REDLOCK)),
    REDLOCK_5(
            "redlock5",
            "Redlock ×5",
            "Redlock: five independent masters",
            List.of(Workload.W1, Workload.W5),
            List.of(Peer.DLOCK, Peer.DLOCK_LETTUCE, Peer.REDISSON_REDLOCK));

    /** The name {@code --topologies} takes. */
    final String option;

    /** The topology's name in headings, e.g. "Redlock ×3". */
    final String shortTitle;

    final String title;
    private final List<Workload> workloads;
    private final List<Peer> peers;

    Topology(String option, String shortTitle, String title, List<Workload> workloads, List<Peer> peers) {
        this.option = option;
        this.shortTitle = shortTitle;
        this.title = title;
        this.workloads = workloads;
        this.peers = peers;
    }

    /** The workloads of this topology's phase; the standalone suite's are {@link Workload#values()}. */
    List<Workload> workloads() {
        return this == STANDALONE ? List.of(Workload.values()) : workloads;
    }

    /** The peers measured in {@code workload} on this topology. */
    List<Peer> peers(Workload workload) {
        return this == STANDALONE ? workload.peers() : peers;
    }

    /** How many masters take writes. */
    int masters() {
        return switch (this) {
            case STANDALONE, SENTINEL -> 1;
            case CLUSTER, REDLOCK_3 -> 3;
            case REDLOCK_5 -> 5;
        };
    }

    /** The label of {@code peer} in this topology's tables: what it is configured with here. */
    String label(Peer peer) {
        return switch (this) {
            case SENTINEL ->
                switch (peer) {
                    case DLOCK -> "dlock, replicaAcks(0)";
                    case DLOCK_LETTUCE -> "dlock on Lettuce, replicaAcks(0)";
                    case REDISSON -> "Redisson RLock, Sentinel mode (checkLockSyncedSlaves)";
                    default -> peer.label;
                };
            case CLUSTER -> peer == Peer.REDISSON ? "Redisson RLock, cluster mode" : peer.label;
            case REDLOCK_3, REDLOCK_5 ->
                switch (peer) {
                    case DLOCK -> "dlock redlock(...)";
                    case DLOCK_LETTUCE -> "dlock redlock(...) on Lettuce";
                    default -> peer.label;
                };
            default -> peer.label;
        };
    }

    /**
     * Parses the value of {@code --topologies}: {@code all}, {@code none}, or names such as {@code sentinel,redlock3}.
     *
     * @param list the option's value
     * @return the topology phases to run (never {@link #STANDALONE})
     * @throws IllegalArgumentException naming an unknown topology
     */
    static Set<Topology> parse(String list) {
        Set<Topology> set = EnumSet.noneOf(Topology.class);
        for (String raw : list.split(",")) {
            String name = raw.trim().toLowerCase(Locale.ROOT);
            if (name.equals("all")) {
                set.addAll(EnumSet.complementOf(EnumSet.of(STANDALONE)));
            } else if (!name.equals("none") && !name.isEmpty()) {
                set.add(byOption(name));
            }
        }
        return set;
    }

    private static Topology byOption(String name) {
        for (Topology t : values()) {
            if (t != STANDALONE && t.option.equals(name)) {
                return t;
            }
        }
        List<String> options = options();
        throw new IllegalArgumentException("--topologies: unknown topology '" + name + "' (expected all, none, "
                + String.join(", ", options.subList(0, options.size() - 1)) + " or " + options.get(options.size() - 1)
                + ")");
    }

    /** The names {@code --topologies} takes besides {@code all} and {@code none}, in phase order. */
    static List<String> options() {
        return Arrays.stream(values())
                .filter(t -> t != STANDALONE)
                .map(t -> t.option)
                .toList();
    }
}
