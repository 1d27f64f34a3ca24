package dev.dlock.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/** The metrics of one run of one workload for one peer on one topology, by metric, plus what went wrong in it. */
final class Measurement {
    final Topology topology;
    final Workload workload;
    final Peer peer;
    final Map<Metric, Double> values = new LinkedHashMap<>();
    String failure; // null when the run completed
    String clientCommandMix = ""; // client commands per acquisition by command, e.g. "evalsha 2.00, subscribe 0.50"

    Measurement(Workload workload, Peer peer) {
        this(Topology.STANDALONE, workload, peer);
    }

    Measurement(Topology topology, Workload workload, Peer peer) {
        this.topology = topology;
        this.workload = workload;
        this.peer = peer;
    }

    Measurement put(Metric metric, double value) {
        values.put(metric, value);
        return this;
    }

    double get(Metric metric) {
        return values.getOrDefault(metric, Double.NaN);
    }
}
