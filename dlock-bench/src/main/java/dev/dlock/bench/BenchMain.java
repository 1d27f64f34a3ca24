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
 * {@code docs/benchmarks.md} and {@code docs/benchmarks.png}.
 *
 * <p>Options: {@code --quick} (one run, short phases: a smoke test, not a measurement), {@code --only W1,W3} (a subset
 * of the workloads), {@code --peers DLOCK,NAIVE} (a subset of the peers), {@code --docs DIR} (where the report goes,
 * default {@code docs}), {@code --no-report} (print only), {@code --runs N}, {@code
 * --measure-ms N} (a longer measured window, for profiling), {@code --process-warmup-ms N} (how long each W5 process
 * warms up before the phase), {@code --w5-warmup-ms N} (the warm-up of the W5 phase itself). The W5 client processes take extra JVM arguments from
 * the system property {@code dlock.bench.childJvmArgs} ({@code {id}} becomes the client's number), e.g. a JFR
 * recording per client.
 */
public final class BenchMain {
    private BenchMain() {}

    /**
     * Runs the suite.
     *
     * @param args the options described on the class
     * @throws Exception if the server cannot be started or the report cannot be written
     */
    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Settings settings = Settings.full();
        Set<Workload> workloads = EnumSet.allOf(Workload.class);
        Set<Peer> peers = EnumSet.allOf(Peer.class);
        Path docs = Path.of("docs");
        boolean report = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
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
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        List<Measurement> measurements = new ArrayList<>();
        List<BenchmarkCeiling.Result> ceilings = new ArrayList<>();
        List<RingCeiling.Result> rings = new ArrayList<>();
        long started = System.nanoTime();
        String load = Environment.loadAverage();
        try (RedisServer server = RedisServer.builder().start()) {
            System.out.printf(
                    "redis-server %s on port %d; load average before: %s%n", server.version(), server.port(), load);
            MachineLoad machine = MachineLoad.start(server);
            warmUp(server, settings, peers);
            for (int run = 1; run <= settings.runs(); run++) {
                for (Workload workload : workloads) {
                    for (Peer peer : inRunOrder(workload.peers(), run)) {
                        if (!peers.contains(peer)) {
                            continue;
                        }
                        Measurement m = measure(workload, peer, server, settings, run);
                        measurements.add(m);
                        System.out.println(Report.line(run, m));
                        server.command("FLUSHALL");
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
            if (report) {
                Environment env = Environment.describe(
                        server, load, Environment.loadAverage(), machine.othersShare(), minutes, settings);
                Report.write(docs, settings, env, measurements, ceilings, rings);
                System.out.println("wrote " + docs.resolve("benchmarks.md") + " and " + docs.resolve("benchmarks.png"));
            }
        }
    }

    /**
     * Compiles every peer's uncontended path once before anything is measured, so that the first peer of the first
     * run does not pay for the JIT alone; nothing of this round is reported.
     */
    private static void warmUp(RedisServer server, Settings settings, Set<Peer> peers) {
        Settings brief = settings.withPhaseMillis(Math.min(1000, settings.warmupMillis()), 500);
        for (Peer peer : Workload.W1.peers()) {
            if (peers.contains(peer)) {
                InProcessRun.run(Workload.W1, peer, server, brief, 0);
                server.command("FLUSHALL");
            }
        }
    }

    /** Rotates the peers by one place per run, so that no peer always runs first (or right after another). */
    static List<Peer> inRunOrder(List<Peer> peers, int run) {
        List<Peer> order = new ArrayList<>(peers);
        java.util.Collections.rotate(order, -((run - 1) % Math.max(1, order.size())));
        return order;
    }

    private static Measurement measure(Workload workload, Peer peer, RedisServer server, Settings settings, int run) {
        return switch (workload) {
            case W1, W2, W3, W4 -> InProcessRun.run(workload, peer, server, settings, run);
            case W5 -> ProcessesRun.run(peer, server, settings.forW5(), run);
            case W6 -> LeasesRun.run(peer, server, settings, run);
        };
    }

    private static <E extends Enum<E>> Set<E> parse(Class<E> type, String list) {
        Set<E> set = EnumSet.noneOf(type);
        for (String name : list.split(",")) {
            set.add(Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT)));
        }
        return set;
    }
}
