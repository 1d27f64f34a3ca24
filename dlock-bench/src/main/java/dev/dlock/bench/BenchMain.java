package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs the side-by-side benchmark against one {@code redis-server} that it starts itself (never port 6379) and writes
 * {@code docs/benchmarks.md} and {@code docs/benchmarks.png}; with {@code --topologies}, also the topology phases, each
 * on servers the testkit starts for it (Sentinel, Cluster, Redlock over 3 and 5 masters), into the page's
 * "Topologies" section.
 *
 * <p>Its options are listed by {@code --help} ({@link #usage()}).
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
        Settings settings = Settings.full();
        Set<Workload> workloads = EnumSet.allOf(Workload.class);
        Set<Peer> peers = EnumSet.allOf(Peer.class);
        Set<Topology> topologies = EnumSet.noneOf(Topology.class);
        boolean standalone = true;
        Path docs = Path.of("docs");
        boolean report = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--virtual" -> {
                    List<String> failed = VirtualMain.run(List.of(args).subList(i + 1, args.length));
                    if (!failed.isEmpty()) {
                        System.exit(1);
                    }
                    return;
                }
                case "--quick" -> settings = Settings.quick();
                case "--only" -> workloads = parse(Workload.class, args[++i]);
                case "--peers" -> peers = parse(Peer.class, args[++i]);
                case "--docs" -> docs = Path.of(args[++i]);
                case "--no-report" -> report = false;
                case "--runs" -> settings = settings.withRuns(Integer.parseInt(args[++i]));
                case "--w5-warmup-ms" -> settings = settings.withW5WarmupMillis(Long.parseLong(args[++i]));
                case "--process-warmup-ms" -> settings = settings.withProcessWarmupMillis(Long.parseLong(args[++i]));
                case "--measure-ms" ->
                    settings = settings.withPhaseMillis(settings.warmupMillis(), Long.parseLong(args[++i]));
                case "--topologies" -> topologies = Topology.parse(args[++i]);
                case "--no-standalone" -> standalone = false;
                case "--help", "-h" -> {
                    System.out.print(usage());
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + usage());
            }
        }
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

    private static <E extends Enum<E>> Set<E> parse(Class<E> type, String list) {
        Set<E> set = EnumSet.noneOf(type);
        for (String name : list.split(",")) {
            try {
                set.add(Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " '" + name.trim() + "'; one of "
                                + EnumSet.allOf(type),
                        e);
            }
        }
        return set;
    }

    /** What {@code --help} prints: the options of the class comment, and the workloads and peers by name. */
    static String usage() {
        return String.join(
                "\n",
                "usage: java -jar dlock-bench.jar [options]",
                "  --quick                   one run with short phases (a smoke test, not a measurement)",
                "  --only W1,W3              a subset of the workloads: " + EnumSet.allOf(Workload.class),
                "  --peers DLOCK,NAIVE       a subset of the peers: " + EnumSet.allOf(Peer.class),
                "  --runs N                  runs per workload and peer (default 3)",
                "  --measure-ms N            a longer measured window, for profiling",
                "  --process-warmup-ms N     how long each W5 process warms up on its own",
                "  --w5-warmup-ms N          the warm-up of the W5 phase itself",
                "  --topologies LIST         all, or some of " + String.join(",", Topology.options())
                        + " (none by default)",
                "  --no-standalone           skip the main suite (only the topology section is rewritten)",
                "  --virtual [--runs N] [--threads N] [--names N] [--measure-ms N] [--docs DIR] [--no-report]",
                "                            only W15: virtual threads over few names (JDK 21+); its own section",
                "  --docs DIR                where benchmarks.md and benchmarks.png go (default docs)",
                "  --no-report               print only",
                "  --help                    this text",
                "");
    }
}
