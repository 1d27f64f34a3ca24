package dev.dlock.bench;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/**
 * The command line of {@link BenchMain}, parsed by picocli. Each option is independent of the others' order: {@code
 * --quick} picks the base settings, and {@code --runs} and the millisecond options change them.
 *
 * <p>Not thread-safe: one instance per parse.
 */
@Command(
        name = "java -jar dlock-bench.jar",
        synopsisHeading = "usage: ",
        sortOptions = false,
        description = "The side-by-side benchmark against Redisson and Spring Integration, on servers it starts"
                + " itself; rewrites docs/benchmarks.md and docs/benchmarks.png.")
final class BenchOptions {
    @Option(names = "--quick", description = "One run with short phases (a smoke test, not a measurement).")
    boolean quick;

    @Option(
            names = "--only",
            paramLabel = "WORKLOAD",
            split = ",",
            converter = WorkloadName.class,
            description = "A subset of the workloads (below), such as W1,W3.")
    List<Workload> only;

    @Option(
            names = "--peers",
            paramLabel = "PEER",
            split = ",",
            converter = PeerName.class,
            description = "A subset of the peers (below), such as DLOCK,NAIVE.")
    List<Peer> onlyPeers;

    @Option(names = "--runs", paramLabel = "N", description = "Runs per workload and peer (default 3; --quick: 1).")
    Integer runs;

    @Option(names = "--measure-ms", paramLabel = "N", description = "A longer measured window, for profiling.")
    Long measureMillis;

    @Option(
            names = "--process-warmup-ms",
            paramLabel = "N",
            description = "How long each W5 process warms up on its own.")
    Long processWarmupMillis;

    @Option(names = "--w5-warmup-ms", paramLabel = "N", description = "The warm-up of the W5 phase itself.")
    Long w5WarmupMillis;

    @Option(names = "--topologies", paramLabel = "LIST", description = "The topology phases (below; none by default).")
    String topologyList = "none";

    /** {@code --topologies}, read by {@link #parse}. */
    Set<Topology> topologies;

    @Option(names = "--no-standalone", description = "Skip the main suite (only the topology section is rewritten).")
    boolean noStandalone;

    @Option(
            names = "--docs",
            paramLabel = "DIR",
            description = "Where benchmarks.md and benchmarks.png go (default: ${DEFAULT-VALUE}).")
    Path docs = Path.of("docs");

    @Option(names = "--no-report", description = "Print only.")
    boolean noReport;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "This text.")
    boolean help;

    /**
     * Parses the command line.
     *
     * @throws IllegalArgumentException naming an unknown option ({@code unknown option --fast}) or a bad value, with
     *     the usage after it
     */
    static BenchOptions parse(String... args) {
        BenchOptions options = new BenchOptions();
        try {
            commandLine(options).parseArgs(args);
            options.topologies = Topology.parse(options.topologyList);
        } catch (ParameterException e) {
            String problem = e instanceof CommandLine.UnmatchedArgumentException unmatched
                            && !unmatched.getUnmatched().isEmpty()
                    ? "unknown option " + unmatched.getUnmatched().get(0)
                    : e.getMessage();
            throw new IllegalArgumentException(problem + "\n" + usage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "\n" + usage(), e);
        }
        return options;
    }

    /** The workloads to run: those of {@code --only}, else all. */
    Set<Workload> workloads() {
        return only == null ? EnumSet.allOf(Workload.class) : EnumSet.copyOf(only);
    }

    /** The peers to run: those of {@code --peers}, else all. */
    Set<Peer> peers() {
        return onlyPeers == null ? EnumSet.allOf(Peer.class) : EnumSet.copyOf(onlyPeers);
    }

    /** What {@code --help} prints: the options, and the workloads, peers and topologies by name. */
    static String usage() {
        return commandLine(new BenchOptions()).getUsageMessage(Help.Ansi.OFF);
    }

    private static CommandLine commandLine(BenchOptions options) {
        CommandLine cli = new CommandLine(options);
        cli.getCommandSpec()
                .usageMessage()
                .footer(
                        "",
                        "Workloads: " + EnumSet.allOf(Workload.class),
                        "Peers: " + EnumSet.allOf(Peer.class),
                        "Topologies: all, or some of " + String.join(",", Topology.options()));
        return cli;
    }

    /** The settings of the run: {@code --quick} or the full suite, with the options that change them. */
    Settings settings() {
        Settings settings = quick ? Settings.quick() : Settings.full();
        if (runs != null) {
            settings = settings.withRuns(runs);
        }
        if (w5WarmupMillis != null) {
            settings = settings.withW5WarmupMillis(w5WarmupMillis);
        }
        if (processWarmupMillis != null) {
            settings = settings.withProcessWarmupMillis(processWarmupMillis);
        }
        if (measureMillis != null) {
            settings = settings.withPhaseMillis(settings.warmupMillis(), measureMillis);
        }
        return settings;
    }

    /** One enum constant, case-insensitive, or a message naming the choices. */
    private abstract static class EnumName<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;

        EnumName(Class<E> type) {
            this.type = type;
        }

        @Override
        public E convert(String name) {
            try {
                return Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " '" + name.trim() + "'; one of "
                                + EnumSet.allOf(type));
            }
        }
    }

    static final class WorkloadName extends EnumName<Workload> {
        WorkloadName() {
            super(Workload.class);
        }
    }

    static final class PeerName extends EnumName<Peer> {
        PeerName() {
            super(Peer.class);
        }
    }
}
