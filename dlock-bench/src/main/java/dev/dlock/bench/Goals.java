package dev.dlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The goals of issue 5 (the main suite, with issue 16's for the lock family) and of issue 14 (the topology phases), each checked against the median of
 * what this suite measured.
 */
final class Goals {
    private Goals() {}

    /** One goal: the measured spread, and whether the median meets the bound. */
    record Goal(String text, Spread measured, String format, double bound, boolean atLeast) {
        boolean known() {
            return measured.isKnown();
        }

        boolean met() {
            return known() && (atLeast ? measured.median() >= bound : measured.median() <= bound);
        }

        /** Whether every run met it, not only the median. */
        boolean metByEveryRun() {
            return known() && (atLeast ? measured.min() >= bound : measured.max() <= bound);
        }
    }

    static List<Goal> check(Runs r) {
        List<Goal> goals = new ArrayList<>();
        Metric pps = Metric.PAIRS_PER_SECOND;
        goals.add(new Goal(
                "W1 pairs/s ≥ 0.95× the raw-Lettuce floor",
                r.ratio(Workload.W1, Peer.DLOCK, Peer.FLOOR, pps),
                "%.2f×",
                0.95,
                true));
        goals.add(new Goal(
                "W1 allocation < 1 KB per pair",
                r.spread(Workload.W1, Peer.DLOCK, Metric.ALLOC_PER_PAIR),
                "%.0f B",
                1024,
                false));
        goals.add(new Goal(
                "W2 pairs/s ≥ 0.9× the raw-Lettuce floor",
                r.ratio(Workload.W2, Peer.DLOCK, Peer.FLOOR, pps),
                "%.2f×",
                0.9,
                true));
        goals.add(new Goal(
                "W3 pairs/s ≥ 2× Redisson", r.ratio(Workload.W3, Peer.DLOCK, Peer.REDISSON, pps), "%.2f×", 2, true));
        goals.add(new Goal(
                "W3 pairs/s ≥ 1.5× Spring Integration (the faster of its two modes)",
                r.ratioToBest(Workload.W3, Peer.DLOCK, Peer.SPRING_PUB_SUB, Peer.SPRING_SPIN, pps),
                "%.2f×",
                1.5,
                true));
        goals.add(new Goal(
                "W3 releasing thread re-acquires ≤ 25%",
                r.spread(Workload.W3, Peer.DLOCK, Metric.REACQUIRE_SHARE), "%.0f%%", 25, false));
        goals.add(new Goal(
                "W4 pairs/s ≥ 2× Redisson", r.ratio(Workload.W4, Peer.DLOCK, Peer.REDISSON, pps), "%.2f×", 2, true));
        goals.add(new Goal(
                "W4 lock p99 ≤ 3× the mean wait",
                r.spread(Workload.W4, Peer.DLOCK, Metric.LOCK_P99_OVER_MEAN),
                "%.1f×",
                3,
                false));
        goals.add(new Goal(
                "W5 pairs/s ≥ 2× the naive polling lock",
                r.ratio(Workload.W5, Peer.DLOCK, Peer.NAIVE, pps),
                "%.2f×",
                2,
                true));
        goals.add(new Goal(
                "W5 pairs/s ≥ 5× Redisson", r.ratio(Workload.W5, Peer.DLOCK, Peer.REDISSON, pps), "%.2f×", 5, true));
        goals.add(new Goal(
                "W5 releasing client re-acquires ≤ 25%",
                r.spread(Workload.W5, Peer.DLOCK, Metric.REACQUIRE_SHARE), "%.0f%%", 25, false));
        goals.add(new Goal(
                "W5 ≤ 2.5 round trips (client commands) per acquisition",
                r.spread(Workload.W5, Peer.DLOCK, Metric.TOP_LEVEL_PER_ACQ),
                "%.2f",
                2.5,
                false));
        goals.add(new Goal(
                "W6 ≤ 1 renewal round trip per 100 held leases per interval",
                r.spread(Workload.W6, Peer.DLOCK, Metric.RENEWAL_CALLS_PER_100),
                "%.2f",
                1,
                false));
        goals.add(new Goal(
                "W7 pairs/s ≥ 2× Redisson's RPermitExpirableSemaphore (issue 16)",
                r.ratio(Workload.W7, Peer.DLOCK_SEMAPHORE, Peer.REDISSON_SEMAPHORE, pps),
                "%.2f×",
                2,
                true));
        goals.add(new Goal(
                "W8 pairs/s ≥ 2× Redisson's RPermitExpirableSemaphore (issue 16)",
                r.ratio(Workload.W8, Peer.DLOCK_SEMAPHORE, Peer.REDISSON_SEMAPHORE, pps),
                "%.2f×",
                2,
                true));
        for (Workload w : List.of(Workload.W9, Workload.W10, Workload.W11, Workload.W12)) {
            goals.add(new Goal(
                    w.name() + " pairs/s ≥ 2× Redisson's RReadWriteLock (" + (w.writePercent() < 50 ? "read" : "write")
                            + "-heavy; issue 16)",
                    r.ratio(w, Peer.DLOCK_RW, Peer.REDISSON_RW, pps),
                    "%.2f×",
                    2,
                    true));
        }
        for (Workload w : List.of(Workload.W9, Workload.W11)) {
            goals.add(new Goal(
                    w.name() + " writer's wait p99 ≤ 10× its mean under the read-heavy stream (issue 16)",
                    r.spread(w, Peer.DLOCK_RW, Metric.WRITER_P99_OVER_MEAN),
                    "%.1f×",
                    10,
                    false));
        }
        for (Workload w : List.of(Workload.W13, Workload.W14)) {
            goals.add(new Goal(
                    w.name() + " pairs/s ≥ 2× RedissonMultiLock (the faster of "
                            + (w.separateProcesses
                                    ? "its two orders; 8 processes)"
                                    : "names as drawn and names sorted; issue 16)"),
                    r.ratioToBest(w, Peer.DLOCK_MULTI, Peer.REDISSON_MULTI, Peer.REDISSON_MULTI_SORTED, pps),
                    "%.2f×",
                    2,
                    true));
        }
        return goals;
    }

    /**
     * The goals of issue 14, for the topologies measured: on Sentinel, dlock with {@code replicaAcks(1)} against
     * Redisson, whose lock waits for the replica too (one row per dlock transport); on a cluster, dlock (on Lettuce,
     * the transport that serves a cluster) against Redisson in cluster mode.
     *
     * @param byTopology the runs of each topology measured
     * @return the goals, in the order of the topologies
     */
    static List<Goal> checkTopologies(Map<Topology, Runs> byTopology) {
        List<Goal> goals = new ArrayList<>();
        Metric pps = Metric.PAIRS_PER_SECOND;
        Runs sentinel = byTopology.get(Topology.SENTINEL);
        if (sentinel != null) {
            for (Workload w : List.of(Workload.W1, Workload.W5)) {
                goals.add(new Goal(
                        "Sentinel " + w.name() + " pairs/s ≥ 1.5× Redisson (dlock, replicaAcks(1))",
                        sentinel.ratio(w, Peer.DLOCK_ACKS, Peer.REDISSON, pps),
                        "%.2f×",
                        1.5,
                        true));
                goals.add(new Goal(
                        "Sentinel " + w.name() + " pairs/s ≥ 1.5× Redisson (dlock on Lettuce, replicaAcks(1))",
                        sentinel.ratio(w, Peer.DLOCK_LETTUCE_ACKS, Peer.REDISSON, pps),
                        "%.2f×",
                        1.5,
                        true));
            }
        }
        Runs cluster = byTopology.get(Topology.CLUSTER);
        if (cluster != null) {
            goals.add(new Goal(
                    "Cluster W2 pairs/s ≥ 2× Redisson (dlock on Lettuce)",
                    cluster.ratio(Workload.W2, Peer.DLOCK_LETTUCE, Peer.REDISSON, pps),
                    "%.2f×",
                    2,
                    true));
        }
        return goals;
    }
}
