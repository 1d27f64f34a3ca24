package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * W15 on its own ({@code java -jar dlock-bench.jar --virtual}, on JDK 21 or newer; the suite's figures come from JDK
 * 25): 10,000 virtual threads over 100 names through dlock's {@code lock()}/{@code unlock()}, its {@code
 * acquire()}/{@code Lease} and Redisson's {@code RLock}, each mode once per run with the order rotating, on one
 * {@code redis-server} the testkit starts; prints every run, writes W15's section of {@code docs/benchmarks.md} and
 * exits with status 1 when a goal ({@link VirtualRun#failedChecks}) is missed.
 */
final class VirtualMain {
    static final String COMMAND = "mvn -q -B -DskipTests -pl dlock-bench -am package"
            + " && /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar dlock-bench/target/dlock-bench.jar"
            + " --virtual";
    private static final Duration LEASE = Duration.ofSeconds(30);

    private VirtualMain() {}

    /**
     * Runs W15 with the options after {@code --virtual}: {@code --runs N} (default 3), {@code --threads N}, {@code
     * --names N}, {@code --measure-ms N}, {@code --docs DIR}, {@code --no-report}.
     *
     * @return the goals missed; empty when all were met
     */
    static List<String> run(List<String> args) throws Exception {
        int runs = 3;
        VirtualRun.Sizes sizes = VirtualRun.Sizes.FULL;
        Path docs = Path.of("docs");
        boolean report = true;
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "--runs" -> runs = Integer.parseInt(args.get(++i));
                case "--threads" ->
                    sizes = new VirtualRun.Sizes(
                            Integer.parseInt(args.get(++i)),
                            sizes.names(),
                            sizes.warmupMillis(),
                            sizes.measureMillis());
                case "--names" ->
                    sizes = new VirtualRun.Sizes(
                            sizes.threads(),
                            Integer.parseInt(args.get(++i)),
                            sizes.warmupMillis(),
                            sizes.measureMillis());
                case "--measure-ms" ->
                    sizes = new VirtualRun.Sizes(
                            sizes.threads(), sizes.names(), sizes.warmupMillis(), Long.parseLong(args.get(++i)));
                case "--docs" -> docs = Path.of(args.get(++i));
                case "--no-report" -> report = false;
                default -> throw new IllegalArgumentException("unknown option of --virtual: " + args.get(i));
            }
        }
        String loadBefore = Environment.loadAverage();
        MachineLoad machine = MachineLoad.start();
        long started = System.nanoTime();
        List<List<VirtualRun.Result>> results = new ArrayList<>();
        String version;
        try (RedisServer server = RedisServer.builder().start()) {
            version = server.version();
            Target target = Target.standalone(server.host(), server.port());
            System.out.printf(
                    "W15 on redis-server %s, port %d; load average before: %s%n", version, server.port(), loadBefore);
            for (int run = 1; run <= runs; run++) {
                List<VirtualRun.Mode> order = new ArrayList<>(List.of(VirtualRun.Mode.values()));
                Collections.rotate(order, -(run - 1));
                List<VirtualRun.Result> round = new ArrayList<>();
                for (VirtualRun.Mode mode : order) {
                    VirtualRun.Result r = VirtualRun.run(mode, target, sizes, Carriers.virtualThreads(), LEASE, run);
                    System.out.println(VirtualRun.line(run, r));
                    round.add(r);
                    server.command("FLUSHALL");
                }
                results.add(round);
            }
        }
        double minutes = (System.nanoTime() - started) / 60e9;
        List<String> failed = VirtualRun.failedChecks(results, sizes);
        failed.forEach(f -> System.out.println("W15 goal missed: " + f));
        if (report) {
            Environment env = Environment.describe(
                    version, loadBefore, Environment.loadAverage(), machine.othersShare(), minutes, null);
            Report.writeVirtual(docs, section(env, sizes, results, failed));
            System.out.println("wrote W15's section of " + docs.resolve("benchmarks.md"));
        }
        return failed;
    }

    /** W15's section of the page. */
    static String section(
            Environment env, VirtualRun.Sizes sizes, List<List<VirtualRun.Result>> runs, List<String> failed) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(
                Locale.ROOT,
                "## W15: %,d virtual threads over %d names, one client\n\n",
                sizes.threads(),
                sizes.names()));
        md.append("Written by `dlock-bench --virtual` (not part of the default run, which stays on the build's JDK 17)."
                        + " Reproduce with:\n\n    ")
                .append(COMMAND)
                .append("\n\n");
        md.append(String.format(
                Locale.ROOT,
                "Each thread loops take, check, release on name `i %% %d` of its own, so every name has a line of %d"
                        + " waiters; dlock runs on dlock-resp, Redisson with its defaults, both with a 30 s watchdog"
                        + " lease, against one testkit `redis-server` (%s). %d runs, each mode once per run in rotating"
                        + " order: %d ms warm-up, then %d ms measured; tables show the median and, in brackets,"
                        + " min–max. JDK: %s; run at %s on %s. Platform threads are sampled every 10 ms (`ThreadMXBean`,"
                        + " which counts no virtual thread); pinned carriers are the `jdk.VirtualThreadPinned` events"
                        + " of a JFR recording of each run (threshold 0, stack traces), read back with"
                        + " `jdk.jfr.consumer`; \"in dlock\" means a frame of `dev.dlock` outside the benchmark.\n\n",
                sizes.names(),
                sizes.threads() / sizes.names(),
                env.redis(),
                runs.size(),
                sizes.warmupMillis(),
                sizes.measureMillis(),
                env.jdk(),
                env.date(),
                env.cpus() + " × " + env.cpuModel()));
        md.append(String.format(
                Locale.ROOT,
                "**Measured on the shared, noisy 2-core host while other builds ran** (load average %s before, %s"
                        + " after; other processes took %.0f%% of the CPU during the %.1f min): absolute figures are"
                        + " low and vary; the ratios within a run are the more telling.\n\n",
                env.loadBefore(),
                env.loadAfter(),
                100 * env.othersShare(),
                env.minutes()));
        md.append("| goal | measured: median (min–max) | met? |\n| --- | --- | --- |\n");
        for (VirtualRun.Mode mode : List.of(VirtualRun.Mode.DLOCK_LOCK, VirtualRun.Mode.DLOCK_LEASE)) {
            Spread ratio =
                    Spread.of(runs.stream().map(r -> VirtualRun.ratio(r, mode)).toList());
            md.append("| ")
                    .append(mode.label)
                    .append(" pairs/s ≥ 2× Redisson's | ")
                    .append(range(ratio, "%.2f×"))
                    .append(" | ")
                    .append(ratio.median() >= 2 ? "yes" : "**no**")
                    .append(" |\n");
        }
        Spread pinned = spread(runs, true, r -> r.pinned().inDlock());
        md.append("| pinned carriers in dlock's code (both dlock modes) = 0 | ")
                .append(range(pinned, "%.0f"))
                .append(" | ")
                .append(pinned.max() == 0 ? "yes" : "**no**")
                .append(" |\n");
        Spread threads = spread(runs, true, VirtualRun.Result::platformThreadsAdded);
        md.append(String.format(
                        Locale.ROOT,
                        "| platform threads added for %,d waiters ≤ %d (both dlock modes) | ",
                        sizes.threads(),
                        sizes.platformThreadLimit()))
                .append(range(threads, "%.0f"))
                .append(" | ")
                .append(threads.max() <= sizes.platformThreadLimit() ? "yes" : "**no**")
                .append(" |\n\n");
        md.append("| way | pairs/s | platform threads added | pinned in dlock | pinned elsewhere | starved threads"
                + " | exclusion violations |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (VirtualRun.Mode mode : VirtualRun.Mode.values()) {
            List<List<VirtualRun.Result>> one = runs.stream()
                    .map(r -> r.stream().filter(x -> x.mode() == mode).toList())
                    .toList();
            md.append("| ")
                    .append(mode.label)
                    .append(" | ")
                    .append(range(spread(one, false, VirtualRun.Result::pairsPerSecond), "%.0f"))
                    .append(" | ")
                    .append(range(spread(one, false, VirtualRun.Result::platformThreadsAdded), "%.0f"))
                    .append(" | ")
                    .append(range(spread(one, false, r -> r.pinned().inDlock()), "%.0f"))
                    .append(" | ")
                    .append(range(spread(one, false, r -> r.pinned().elsewhere()), "%.0f"))
                    .append(" | ")
                    .append(range(spread(one, false, VirtualRun.Result::starved), "%.0f"))
                    .append(" | ")
                    .append(range(spread(one, false, VirtualRun.Result::violations), "%.0f"))
                    .append(" |\n");
        }
        md.append('\n');
        if (!failed.isEmpty()) {
            md.append("Goals missed or runs that failed:\n\n");
            failed.forEach(f -> md.append("- ").append(f).append('\n'));
            md.append('\n');
        }
        return md.toString();
    }

    private static Spread spread(
            List<List<VirtualRun.Result>> runs, boolean dlockOnly, ToDoubleFunction<VirtualRun.Result> value) {
        return Spread.of(runs.stream()
                .flatMap(List::stream)
                .filter(r -> r.failure() == null && (!dlockOnly || r.mode().dlock))
                .map(value::applyAsDouble)
                .toList());
    }

    private static String range(Spread s, String format) {
        if (!s.isKnown()) {
            return "not measured";
        }
        return String.format(Locale.ROOT, format + " (" + format + "–" + format + ")", s.median(), s.min(), s.max());
    }
}
