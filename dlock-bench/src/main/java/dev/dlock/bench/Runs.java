package dev.dlock.bench;

import java.util.ArrayList;
import java.util.List;

/** All measurements of a suite, looked up by workload, peer and metric across the runs. */
final class Runs {
    private final List<Measurement> measurements;
    private final int runs;

    Runs(List<Measurement> measurements, int runs) {
        this.measurements = measurements;
        this.runs = runs;
    }

    /** The measurements of one topology, with the run count of the suite. */
    static Runs of(List<Measurement> all, Topology topology, int runs) {
        return new Runs(all.stream().filter(m -> m.topology == topology).toList(), runs);
    }

    List<Measurement> all() {
        return measurements;
    }

    /** The measurements of one workload and peer, in run order. */
    List<Measurement> of(Workload w, Peer p) {
        return measurements.stream().filter(m -> m.workload == w && m.peer == p).toList();
    }

    boolean has(Workload w, Peer p) {
        return !of(w, p).isEmpty();
    }

    Spread spread(Workload w, Peer p, Metric metric) {
        return Spread.of(values(w, p, metric));
    }

    /** The ratio {@code a / b} of one metric, taken within each run (same server, same minute), then spread. */
    Spread ratio(Workload w, Peer a, Peer b, Metric metric) {
        return perRun(values(w, a, metric), values(w, b, metric));
    }

    /** One metric of one workload and peer, in run order. */
    List<Double> values(Workload w, Peer p, Metric metric) {
        return of(w, p).stream().map(m -> m.get(metric)).toList();
    }

    /** {@code as[i] / bs[i]} for each run both measured, then spread. */
    static Spread perRun(List<Double> as, List<Double> bs) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(as.size(), bs.size()); i++) {
            ratios.add(as.get(i) / bs.get(i));
        }
        return Spread.of(ratios);
    }

    /** The ratio of {@code a} to the better of {@code b1} and {@code b2} within each run. */
    Spread ratioToBest(Workload w, Peer a, Peer b1, Peer b2, Metric metric) {
        List<Measurement> as = of(w, a);
        List<Measurement> b1s = of(w, b1);
        List<Measurement> b2s = of(w, b2);
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(as.size(), Math.min(b1s.size(), b2s.size())); i++) {
            double best = Math.max(b1s.get(i).get(metric), b2s.get(i).get(metric));
            ratios.add(as.get(i).get(metric) / best);
        }
        return Spread.of(ratios);
    }

    int runs() {
        return runs;
    }
}
