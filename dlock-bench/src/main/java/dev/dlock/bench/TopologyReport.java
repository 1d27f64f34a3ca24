package dev.dlock.bench;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The "Topologies" section of {@code benchmarks.md}: how the topology phases ran, the goals of issue 14, and per
 * topology its setup, one table per workload, and the ratios within each run that the topology is about.
 */
final class TopologyReport {
    static final String COMMAND = Report.COMMAND + " --topologies all --no-standalone";

    private TopologyReport() {}

    static String section(Settings s, Report.Part part) {
        Map<Topology, Runs> byTopology = new EnumMap<>(Topology.class);
        for (Topology t : Topology.values()) {
            Runs runs = Runs.of(part.measurements(), t, s.runs());
            if (!runs.all().isEmpty()) {
                byTopology.put(t, runs);
            }
        }
        StringBuilder md = new StringBuilder();
        md.append("## Topologies (issue 14)\n\n");
        md.append("Written by the topology phases, which the default run leaves out. Reproduce with:\n\n    ")
                .append(COMMAND)
                .append("\n\n");
        md.append("`--topologies sentinel,cluster,redlock3,redlock5` picks phases (or `all`); without")
                .append(" `--no-standalone` the main suite runs first and the whole page is rewritten, with it only")
                .append(" this section. Each phase starts its own servers through the testkit (free loopback ports,")
                .append(" stopped by pid; Sentinel's down-after and the cluster's node timeout are 60 s, so that a")
                .append(" stall of the host cannot start a failover mid-phase), then measures as the main suite does:")
                .append(" the same lease time, warm-up and window, the peers' order rotating per run, every peer")
                .append(" otherwise at its defaults. The tables count the commands and CPU of the servers that take")
                .append(" the writes (the master; on a cluster and a Redlock every master, summed), with the")
                .append(" command origins sampled on the first of them. A replica's `REPLCONF ACK`s count in")
                .append(" \"all cmds\" but are no client's.\n\n");
        Report.environmentTable(md, part.env());
        md.append("### Goals (issue 14)\n\nRatios are taken within each run.\n\n");
        Report.goalTable(md, Goals.checkTopologies(byTopology));
        byTopology.forEach((t, runs) -> topology(md, t, runs));
        Report.failures(md, "### ", part.measurements());
        md.append('\n');
        return md.toString();
    }

    private static void topology(StringBuilder md, Topology t, Runs runs) {
        md.append("### ").append(t.title).append("\n\n").append(setup(t)).append("\n\n");
        for (Workload w : t.workloads()) {
            Report.table(md, runs, w, "#### " + t.shortTitle + ", " + w.title, t.peers(w), t::label);
        }
        ratios(md, t, runs);
    }

    private static String setup(Topology t) {
        return switch (t) {
            case SENTINEL ->
                "A master with one replica (`--replicaof`, diskless sync) and three sentinels (quorum 2). dlock"
                        + " connects with `redis-sentinel://s1,s2,s3#dlock` on dlock-resp (\"dlock\") and on"
                        + " dlock-lettuce, each with `replicaAcks(1)` (every grant and renewal waits for the replica's"
                        + " `WAIT` acknowledgement, `replicaAckTimeout` 1 s) and with `replicaAcks(0)`, the cost of"
                        + " the acknowledgement in the same run. Redisson runs in Sentinel mode with"
                        + " `checkLockSyncedSlaves(true)` (its default: its lock scripts go in a batch with `WAIT`"
                        + " for the available replicas) and `slavesSyncTimeout` 1 s.";
            case CLUSTER ->
                "Three masters sharing the slots, no replicas (so neither peer waits for one). dlock runs on"
                        + " dlock-lettuce (`redis-cluster://`; dlock-resp refuses a cluster), Redisson in cluster"
                        + " mode. W2's 16 workers each take a name chosen so that the names spread evenly over the"
                        + " three masters (both libraries keep a lock's keys in its name's slot).";
            case REDLOCK_3, REDLOCK_5 ->
                t.masters() + " standalone masters that know nothing of each other. dlock: `LockClient.builder()"
                        + ".redlock(uri1, ...)` on dlock-resp and on dlock-lettuce (quorum " + (t.masters() / 2 + 1)
                        + ", waiters poll with jitter: no FIFO hand-off across nodes; docs/redlock.md). Redisson:"
                        + " a `RedissonRedLock` over one `RLock` per master, each from its own single-server"
                        + " `RedissonClient` (deprecated in Redisson, still in 3.52), `lock()` without a lease so"
                        + " each RLock's watchdog renews it.";
            case STANDALONE -> "";
        };
    }

    /** The ratios within each run that say what the topology costs and how dlock compares there. */
    private static void ratios(StringBuilder md, Topology t, Runs runs) {
        Metric pps = Metric.PAIRS_PER_SECOND;
        List<String[]> rows = new java.util.ArrayList<>();
        for (Workload w : t.workloads()) {
            switch (t) {
                case SENTINEL -> {
                    rows.add(row(
                            w,
                            "dlock: replicaAcks(1) ÷ replicaAcks(0)",
                            runs.ratio(w, Peer.DLOCK_ACKS, Peer.DLOCK, pps)));
                    rows.add(row(
                            w,
                            "dlock on Lettuce: replicaAcks(1) ÷ replicaAcks(0)",
                            runs.ratio(w, Peer.DLOCK_LETTUCE_ACKS, Peer.DLOCK_LETTUCE, pps)));
                }
                case REDLOCK_3, REDLOCK_5 -> {
                    rows.add(row(w, "dlock ÷ RedissonRedLock", runs.ratio(w, Peer.DLOCK, Peer.REDISSON_REDLOCK, pps)));
                    rows.add(row(
                            w,
                            "dlock on Lettuce ÷ RedissonRedLock",
                            runs.ratio(w, Peer.DLOCK_LETTUCE, Peer.REDISSON_REDLOCK, pps)));
                }
                default -> {}
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("Pairs/s ratios within each run:\n\n| workload | ratio | median (min–max) |\n| --- | --- | ---: |\n");
        for (String[] r : rows) {
            md.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        md.append('\n');
    }

    private static String[] row(Workload w, String what, Spread ratio) {
        return new String[] {w.name(), what, Report.withRange(ratio, v -> Report.fmt("%.2f×", v))};
    }
}
