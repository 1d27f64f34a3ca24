package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs the side-by-side benchmark against one {@code redis-server} that it starts itself (never port 6379) and writes
 * {@code docs/benchmarks.md} and {@code docs/benchmarks.png}; with {@code --topologies}, also the topology phases, each
 * on servers the testkit starts for it (Sentinel, Cluster, Redlock over 3 and 5 masters), into the page's
 * "Topologies" section.
 *
 * <p>Its options are listed by {@code --help} ({@link BenchOptions}).
 * The W5 client processes take extra JVM arguments from the system property {@code dlock.bench.childJvmArgs} ({@code
 * {id}} becomes the client's number), e.g. a JFR recording per client.
 */
public final class BenchMain {
    private BenchMain() {}

    /**
     * Runs the suite.
     *
     * @param args the options described on the class
     * @throws Exception if a server cannot be started or the report cannot be written
     */
    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        if (args.length > 0 && args[0].equals("--virtual")) { // W15 has options of its own (VirtualMain)
            if (!VirtualMain.run(List.of(args).subList(1, args.length)).isEmpty()) {
                System.exit(1);
            }
            return;
        }
        BenchOptions options = BenchOptions.parse(args);
        if (options.help) {
            System.out.print(BenchOptions.usage());
            return;
        }
        Settings settings = options.settings();
        Set<Workload> workloads = options.workloads();
        Set<Peer> peers = options.peers();
        Set<Topology> topologies = options.topologies;
        boolean standalone = !options.noStandalone;
        Path docs = options.docs;
        boolean report = !options.noReport;
        Report.Part main = standalone ? runStandalone(settings, workloads, peers) : null;
        Report.Part topologyPart = topologies.isEmpty() ? null : runTopologies(settings, topologies, workloads, peers);
        if (report && (main != null || topologyPart != null)) {
            Report.write(docs, settings, main, topologyPart);
            System.out.println("wrote " + docs.resolve("benchmarks.md")
                    + (main != null ? " and " + docs.resolve("benchmarks.png") : ""));
        }
    }

    /** The main suite on one standalone server: every workload, every standalone peer, and the ceilings. */
    private static Report.Part runStandalone(Settings settings, Set<Workload> workloads, Set<Peer> peers) {
        List<Measurement> measurements = new ArrayList<>();
        List<BenchmarkCeiling.Result> ceilings = new ArrayList<>();
        List<RingCeiling.Result> rings = new ArrayList<>();
        long started = System.nanoTime();
        String load = Environment.loadAverage();
        MachineLoad machine = MachineLoad.start();
        try (RedisServer server = RedisServer.builder().start()) {
            System.out.printf(
                    "redis-server %s on port %d; load average before: %s%n", server.version(), server.port(), load);
            Deployment deployment = Deployment.standalone(server);
            warmUp(deployment, settings, Workload.W1.peers(), peers);
            for (int run = 1; run <= settings.runs(); run++) {
                for (Workload workload : workloads) {
                    for (Peer peer : inRunOrder(workload.peers(), run)) {
                        if (!peers.contains(peer)) {
                            continue;
                        }
                        Measurement m = measure(workload, peer, deployment, settings, run);
                        measurements.add(m);
                        System.out.println(Report.line(run, m));
                        deployment.flushAll();
                    }
                    if (workload == Workload.W5) {
                        for (RingCeiling.Result r : RingCeiling.run(server, settings.forW5(), run)) {
                            rings.add(r);
                            System.out.println(Report.line(r));
                        }
                    }
                }
                ceilings.addAll(BenchmarkCeiling.run(server, settings.benchmarkRequests()));
            }
            double minutes = (System.nanoTime() - started) / 60e9;
            System.out.printf(Locale.ROOT, "suite took %.1f min%n", minutes);
            Environment env = Environment.describe(
                    server.version(), load, Environment.loadAverage(), machine.othersShare(), minutes, settings);
            return new Report.Part(env, measurements, ceilings, rings);
        }
    }

    /**
     * The topology phases, one deployment each, started and stopped here; within a deployment the runs repeat as in
     * the main suite, with the peers' order rotating by one place per run.
     */
    private static Report.Part runTopologies(
            Settings settings, Set<Topology> topologies, Set<Workload> workloads, Set<Peer> peers) throws Exception {
        List<Measurement> measurements = new ArrayList<>();
        long started = System.nanoTime();
        String load = Environment.loadAverage();
        MachineLoad machine = MachineLoad.start();
        String version = "unknown";
        for (Topology topology : topologies) {
            try (Deployment deployment = Deployment.start(topology)) {
                version = deployment.masters().get(0).version();
                System.out.printf(
                        "%s on %s; load average: %s%n", topology.title, deployment.target(), Environment.loadAverage());
                warmUp(deployment, settings, topology.peers(Workload.W1), peers);
                for (int run = 1; run <= settings.runs(); run++) {
                    for (Workload workload : topology.workloads()) {
                        if (!workloads.contains(workload)) {
                            continue;
                        }
                        for (Peer peer : inRunOrder(topology.peers(workload), run)) {
                            if (!peers.contains(peer)) {
                                continue;
                            }
                            Measurement m = measure(workload, peer, deployment, settings, run);
                            measurements.add(m);
                            System.out.println(topology.option + " " + Report.line(run, m));
                            deployment.flushAll();
                        }
                    }
                }
            }
        }
        double minutes = (System.nanoTime() - started) / 60e9;
        System.out.printf(Locale.ROOT, "topology phases took %.1f min%n", minutes);
        Environment env = Environment.describe(
                version, load, Environment.loadAverage(), machine.othersShare(), minutes, settings);
        return new Report.Part(env, measurements, List.of(), List.of());
    }

    /**
     * Compiles every peer's uncontended path once before anything is measured, so that the first peer of the first
     * run does not pay for the JIT alone; nothing of this round is reported.
     */
    private static void warmUp(Deployment deployment, Settings settings, List<Peer> candidates, Set<Peer> peers) {
        Settings brief = settings.withPhaseMillis(Math.min(1000, settings.warmupMillis()), 500);
        for (Peer peer : candidates) {
            if (peers.contains(peer)) {
                InProcessRun.run(Workload.W1, peer, deployment, brief, 0);
                deployment.flushAll();
            }
        }
    }

    /** Rotates the peers by one place per run, so that no peer always runs first (or right after another). */
    static List<Peer> inRunOrder(List<Peer> peers, int run) {
        List<Peer> order = new ArrayList<>(peers);
        java.util.Collections.rotate(order, -((run - 1) % Math.max(1, order.size())));
        return order;
    }

    /** Measures one workload of one peer the way the suite does: in this JVM or in client processes. */
    static Measurement measure(Workload workload, Peer peer, Deployment deployment, Settings settings, int run) {
        return switch (workload) {
            case W1, W2, W3, W4, W7 -> InProcessRun.run(workload, peer, deployment, settings, run);
            case W9, W10, W13 -> FamilyRun.run(workload, peer, deployment, settings, run);
            case W5, W8, W11, W12, W14 -> ProcessesRun.run(workload, peer, deployment, settings.forW5(), run);
            case W6 -> LeasesRun.run(peer, deployment.masters().get(0), settings, run);
        };
    }
}
