package dev.dlock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** Writes {@code benchmarks.md} (environment, goals, one table per workload, the ceiling) and the chart. */
final class Report {
    static final String COMMAND =
            "mvn -q -B -DskipTests -pl dlock-bench -am package && java -jar dlock-bench/target/dlock-bench.jar";

    /** The last line of the page: where the figures of earlier suites are. */
    static final String HISTORY_POINTER =
            "Earlier suites and the before/after figures of changes to the core: [benchmarks-history.md](benchmarks-history.md).\n";

    /**
     * Where the topology section begins: everything above it is the main suite's, everything below it (up to the
     * history pointer) the topology phases'; a run that measured only one of them keeps the other as it was.
     */
    static final String TOPOLOGIES_MARK =
            "<!-- dlock-bench --topologies writes the section below; the main suite writes the part above -->\n";

    private Report() {}

    /**
     * What one part of the suite measured: the main suite (with the ceilings) or the topology phases (without).
     *
     * @param env where and when it ran
     * @param measurements every measurement, in run order
     * @param ceilings the redis-benchmark results (main suite only)
     * @param rings the W5 token rings (main suite only)
     */
    record Part(
            Environment env,
            List<Measurement> measurements,
            List<BenchmarkCeiling.Result> ceilings,
            List<RingCeiling.Result> rings) {}

    /** One console line per measurement, printed as the suite goes. */
    static String line(int run, Measurement m) {
        String values = m.workload.metrics().stream()
                .map(metric -> metric.column + "=" + metric.format(m.get(metric)))
                .collect(Collectors.joining(", "));
        return "run " + run + " " + m.workload.name() + " " + m.topology.label(m.peer) + ": " + values
                + (m.failure == null ? "" : "  FAILED: " + m.failure);
    }

    /** The console line of one W5 ring. */
    static String line(RingCeiling.Result r) {
        return "run " + r.run() + " W5 ring (" + ringLabel(r.hop()) + "): hand-offs/s="
                + fmt("%.0f", r.handoffsPerSecond());
    }

    /**
     * Writes {@code benchmarks.md}: the parts measured now, and from the page as it was the part not measured now.
     *
     * @param docs the directory
     * @param s the settings of the suite
     * @param main the main suite, or null to keep the page's main part (and chart)
     * @param topologies the topology phases, or null to keep the page's topology section
     */
    static void write(Path docs, Settings s, Part main, Part topologies) throws IOException {
        Files.createDirectories(docs);
        Path page = docs.resolve("benchmarks.md");
        String existing = Files.exists(page) ? Files.readString(page) : "";
        String mainText = main == null ? null : main(docs, s, main);
        String topologyText = topologies == null ? null : TopologyReport.section(s, topologies);
        Files.writeString(page, splice(existing, mainText, topologyText));
    }

    /**
     * Where W15's section begins (written by {@code --virtual}, on JDK 21 or newer): between the main suite's part and
     * the topology section, kept as it is by runs that do not measure it.
     */
    static final String VIRTUAL_MARK =
            "<!-- dlock-bench --virtual writes the section below (W15, virtual threads); the main suite the part above -->\n";

    /**
     * The page from its main part and topology section, each the new one where given, else the one in {@code
     * existing}; the history pointer ends it.
     */
    static String splice(String existing, String main, String topologies) {
        return splice(existing, main, null, topologies);
    }

    /**
     * The page from its main part, W15's section and topology section, each the new one where given, else the one in
     * {@code existing}; the history pointer ends it.
     */
    static String splice(String existing, String main, String virtual, String topologies) {
        String body = existing.endsWith(HISTORY_POINTER)
                ? existing.substring(0, existing.length() - HISTORY_POINTER.length())
                : existing;
        int mark = body.indexOf(TOPOLOGIES_MARK);
        String above = mark < 0 ? body : body.substring(0, mark);
        String oldTopologies = mark < 0 ? "" : body.substring(mark + TOPOLOGIES_MARK.length());
        int virtualMark = above.indexOf(VIRTUAL_MARK);
        String oldMain = virtualMark < 0 ? above : above.substring(0, virtualMark);
        String oldVirtual = virtualMark < 0 ? "" : above.substring(virtualMark + VIRTUAL_MARK.length());
        String newMain = main != null ? main : oldMain;
        String newVirtual = virtual != null ? virtual : oldVirtual;
        String newTopologies = topologies != null ? topologies : oldTopologies;
        return newMain
                + (newVirtual.isEmpty() ? "" : VIRTUAL_MARK + newVirtual)
                + (newTopologies.isEmpty() ? "" : TOPOLOGIES_MARK + newTopologies)
                + HISTORY_POINTER;
    }

    /** Writes W15's section into {@code benchmarks.md}, keeping the rest of the page. */
    static void writeVirtual(Path docs, String section) throws IOException {
        Files.createDirectories(docs);
        Path page = docs.resolve("benchmarks.md");
        String existing = Files.exists(page) ? Files.readString(page) : "";
        Files.writeString(page, splice(existing, null, section, null));
    }

    /** The main suite's part of the page, ending with a blank line; writes the chart. */
    private static String main(Path docs, Settings s, Part part) throws IOException {
        Environment env = part.env();
        List<Measurement> ms = part.measurements();
        Runs runs = new Runs(ms, s.runs());
        StringBuilder md = new StringBuilder();
        md.append("# Benchmarks: dlock next to Redisson and Spring Integration\n\n");
        md.append("Written by `dlock-bench` (")
                .append(s.runs() == 1 ? "a quick smoke run, not a measurement" : "the full suite")
                .append("). Reproduce with:\n\n    ")
                .append(COMMAND)
                .append("\n\n");
        md.append(
                        "It starts its own `redis-server` through the testkit (never port 6379), runs every peer against it with")
                .append(
                        " the same lease time and thread counts and otherwise their defaults, and rewrites this page and")
                .append(
                        " `benchmarks.png`. Add `--quick` for a one-run smoke test. The figures on Sentinel, Cluster and")
                .append(" Redlock are in the section \"Topologies\" at the end, written by `--topologies` (not part of")
                .append(" this default run). W15, 10,000 virtual threads next to W2's 16 platform threads, has its own")
                .append(
                        " section before \"Topologies\", written by `--virtual` on JDK 21+ (not part of this default run either).\n\n");
        environment(md, env);
        goals(md, runs);
        md.append("![pairs per second by workload and peer](benchmarks.png)\n\n");
        for (Workload w : Workload.values()) {
            table(md, runs, w);
        }
        commandMix(md, runs);
        ceiling(md, part.ceilings());
        ringCeiling(md, runs, part.rings());
        md.append(Notes.TEXT);
        failures(md, ms);
        // The page is the latest suite only; earlier suites and before/after figures are kept by hand.
        md.append('\n');
        Chart.write(docs.resolve("benchmarks.png"), runs);
        return md.toString();
    }

    private static void environment(StringBuilder md, Environment env) {
        md.append("## Environment\n\n");
        environmentTable(md, env);
    }

    /** The environment table and, on a busy machine, the warning under it. */
    static void environmentTable(StringBuilder md, Environment env) {
        md.append("| | |\n| --- | --- |\n");
        row(md, "date (UTC)", env.date());
        row(
                md,
                "CPUs",
                env.cpus() + " × " + env.cpuModel()
                        + " — **client(s) and redis-server share these cores**, so every figure is lower than on separate hosts");
        row(md, "JDK", env.jdk());
        row(md, "Redis", env.redis() + " (testkit-started, loopback, no persistence)");
        row(
                md,
                "load average (1, 5, 15 min) before / after",
                env.loadBefore() + " / " + env.loadAfter() + " (after includes the suite's own threads)");
        row(
                md,
                "CPU taken by other processes during the suite",
                fmt("%.0f%%", 100 * env.othersShare()) + " of the machine (all CPU time in /proc/stat minus this JVM's,"
                        + " its exited child processes' and redis-server's)");
        row(md, "runs", env.settings().runs() + " (tables show the median and, in brackets, min–max)");
        row(
                md,
                "each phase",
                env.settings().warmupMillis() + " ms warm-up (W5: "
                        + env.settings().w5WarmupMillis() + " ms), then "
                        + env.settings().measureMillis()
                        + " ms measured; lease time " + env.settings().lease().toSeconds() + " s (W6: "
                        + env.settings().manyLeasesLease().toSeconds() + " s)");
        row(md, "suite duration", String.format(Locale.ROOT, "%.1f min", env.minutes()));
        md.append('\n');
        double before = firstLoad(env.loadBefore());
        if (before > 1.0 || env.othersShare() > 0.10) {
            md.append(String.format(
                    Locale.ROOT,
                    "**The machine was busy during this run** (1-minute load average %.1f on %d CPUs before it;"
                            + " other processes took %.0f%% of the CPU while it ran): they competed with the clients"
                            + " and the server, so absolute figures are low and noisy; ratios within a run are the more"
                            + " telling. Rerun on a quiet machine before quoting them.%n%n",
                    before,
                    env.cpus(),
                    100 * env.othersShare()));
        }
    }

    private static void goals(StringBuilder md, Runs runs) {
        md.append(
                "## Goals (issue 5)\n\nRatios are taken within each run, so both sides saw the same machine state.\n\n");
        goalTable(md, Goals.check(runs));
    }

    /** A table of goals: the measured spread, and whether the median (and every run) met the bound. */
    static void goalTable(StringBuilder md, List<Goals.Goal> goals) {
        md.append("| goal | measured: median (min–max) | met? |\n| --- | --- | --- |\n");
        for (Goals.Goal g : goals) {
            String measured = g.known() ? withRange(g.measured(), v -> fmt(g.format(), v)) : "not measured";
            String met =
                    !g.known() ? "–" : g.met() ? (g.metByEveryRun() ? "yes" : "yes (median; not every run)") : "**no**";
            md.append("| ")
                    .append(g.text())
                    .append(" | ")
                    .append(measured)
                    .append(" | ")
                    .append(met)
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void table(StringBuilder md, Runs runs, Workload w) {
        table(md, runs, w, "## " + w.title, w.peers(), p -> p.label);
    }

    /** One workload's table: a row per peer measured, a column per metric, "median (min–max)" in each cell. */
    static void table(
            StringBuilder md,
            Runs runs,
            Workload w,
            String heading,
            List<Peer> peers,
            java.util.function.Function<Peer, String> label) {
        List<Metric> metrics = w.metrics();
        md.append(heading).append("\n\n| peer |");
        metrics.forEach(m -> md.append(' ').append(m.column).append(" |"));
        md.append("\n| --- |");
        metrics.forEach(m -> md.append(" ---: |"));
        md.append('\n');
        for (Peer p : peers) {
            if (!runs.has(w, p)) {
                continue;
            }
            md.append("| ").append(label.apply(p)).append(" |");
            for (Metric m : metrics) {
                md.append(' ')
                        .append(withRange(runs.spread(w, p, m), m::format))
                        .append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /** What clients sent per acquisition under contention, from the run with the median pairs/s. */
    private static void commandMix(StringBuilder md, Runs runs) {
        md.append("## Client commands per acquisition, by command (the run with the median pairs/s)\n\n");
        md.append("| workload | peer | commands clients sent per acquisition |\n| --- | --- | --- |\n");
        for (Workload w : List.of(Workload.W1, Workload.W3, Workload.W4, Workload.W5)) {
            for (Peer p : w.peers()) {
                List<Measurement> of = runs.of(w, p);
                if (of.isEmpty()) {
                    continue;
                }
                List<Measurement> sorted = of.stream()
                        .sorted(java.util.Comparator.comparingDouble(m -> m.get(Metric.PAIRS_PER_SECOND)))
                        .toList();
                Measurement median = sorted.get((sorted.size() - 1) / 2);
                md.append("| ")
                        .append(w.name())
                        .append(" | ")
                        .append(p.label)
                        .append(" | ")
                        .append(median.clientCommandMix)
                        .append(" |\n");
            }
        }
        md.append('\n');
    }

    private static void ceiling(StringBuilder md, List<BenchmarkCeiling.Result> results) {
        md.append("## The machine's ceiling: redis-benchmark on the same server\n\n");
        md.append("`redis-benchmark -c C -n N -t ping,set -q`, once per run; requests per second.\n\n");
        md.append("| test | -c 1 | -c 16 |\n| --- | ---: | ---: |\n");
        Map<String, Map<Integer, List<Double>>> byTest = new TreeMap<>();
        for (BenchmarkCeiling.Result r : results) {
            byTest.computeIfAbsent(r.test(), t -> new TreeMap<>())
                    .computeIfAbsent(r.clients(), c -> new java.util.ArrayList<>())
                    .add(r.requestsPerSecond());
        }
        byTest.forEach((test, byClients) -> {
            md.append("| ").append(test).append(" |");
            for (int c : new int[] {1, 16}) {
                Spread sp = Spread.of(byClients.getOrDefault(c, List.of()));
                md.append(' ').append(withRange(sp, v -> fmt("%.0f", v))).append(" |");
            }
            md.append('\n');
        });
        md.append('\n');
    }

    private static String ringLabel(boolean hop) {
        return hop ? "a reader thread hands each reply to the waiting thread" : "each member reads its own socket";
    }

    private static void ringCeiling(StringBuilder md, Runs runs, List<RingCeiling.Result> rings) {
        if (rings.isEmpty()) {
            return;
        }
        md.append("## W5's ceiling: a FIFO token ring between the 8 processes\n\n");
        md.append("Eight processes pass one token around a ring through Redis lists: each blocks in `BLPOP` on its own")
                .append(
                        " list and, holding the token, sends `LPUSH` to the next one's list and its next `BLPOP` in one")
                .append(" write: one command and one client wake-up per hand-off, and no lock state. A lock that")
                .append(" hands over in FIFO order between processes needs at least that, so while the ring runs it")
                .append(" shows the most such a lock could do. Same warm-up and window as W5, once per run right")
                .append(" after the W5 peers; ratios are taken within each run. On a shared 2-core host the ring")
                .append(" moves between runs as much as the peers do, so a ratio above 1 says the machine was")
                .append(" faster during the peer than during the ring, not that the peer beat it.\n\n");
        Metric pps = Metric.PAIRS_PER_SECOND;
        md.append("| ring | hand-offs/s | dlock W5 pairs/s ÷ ring | naive lock W5 pairs/s ÷ ring |\n");
        md.append("| --- | ---: | ---: | ---: |\n");
        for (boolean hop : new boolean[] {false, true}) {
            List<Double> ring = rings.stream()
                    .filter(r -> r.hop() == hop)
                    .map(RingCeiling.Result::handoffsPerSecond)
                    .toList();
            md.append("| ")
                    .append(ringLabel(hop))
                    .append(" | ")
                    .append(withRange(Spread.of(ring), v -> fmt("%.0f", v)))
                    .append(" | ")
                    .append(withRange(
                            Runs.perRun(runs.values(Workload.W5, Peer.DLOCK, pps), ring), v -> fmt("%.2f×", v)))
                    .append(" | ")
                    .append(withRange(
                            Runs.perRun(runs.values(Workload.W5, Peer.NAIVE, pps), ring), v -> fmt("%.2f×", v)))
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void failures(StringBuilder md, List<Measurement> ms) {
        failures(md, "## ", ms);
    }

    /** The runs that reported a problem, under a heading of the given level, or a line saying there were none. */
    static void failures(StringBuilder md, String heading, List<Measurement> ms) {
        List<Measurement> failed = ms.stream().filter(m -> m.failure != null).toList();
        if (failed.isEmpty()) {
            md.append("\nEvery run completed; no run reported an error.\n");
            return;
        }
        md.append('\n').append(heading).append("Runs that reported a problem\n\n");
        for (Measurement m : failed) {
            md.append("- ")
                    .append(m.topology == Topology.STANDALONE ? "" : m.topology.option + " ")
                    .append(m.workload.name())
                    .append(' ')
                    .append(m.peer.label)
                    .append(": ")
                    .append(m.failure.replace('|', '/'))
                    .append('\n');
        }
    }

    private static double firstLoad(String load) {
        try {
            return Double.parseDouble(load.split(",")[0].trim());
        } catch (RuntimeException unknown) {
            return 0;
        }
    }

    private static void row(StringBuilder md, String name, String value) {
        md.append("| ").append(name).append(" | ").append(value).append(" |\n");
    }

    /** "median (min–max)", or the median alone when only one run measured it. */
    static String withRange(Spread sp, java.util.function.DoubleFunction<String> format) {
        String median = format.apply(sp.median());
        return sp.runs() > 1 ? median + " (" + format.apply(sp.min()) + "–" + format.apply(sp.max()) + ")" : median;
    }

    static String fmt(String format, double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, format, v);
    }
}
