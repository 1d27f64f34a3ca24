package dev.dlock.verify;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The options of one torture run.
 *
 * @param redisUri a Redis of the user's to run the client-side faults against, or {@code null} to start private
 *     {@code redis-server}s (then server faults run too); this run never signals a server it did not start
 * @param seed the seed of the fault schedule and of every client's choices; the report prints it
 * @param longTier run the long tier (more fault rounds, longer lease) instead of the quick one
 * @param outDir where the JSONL histories are written
 * @param only the scenarios to run, by name; empty for all of them
 * @param transport the transport every dlock client of the run is built on, holder JVMs included
 */
public record Options(
        String redisUri, long seed, boolean longTier, Path outDir, List<String> only, ClientTransport transport) {

    /**
     * Validates the options.
     *
     * @param redisUri see the record component
     * @param seed see the record component
     * @param longTier see the record component
     * @param outDir see the record component
     * @param only see the record component
     * @param transport see the record component
     * @throws NullPointerException if {@code outDir}, {@code only} or {@code transport} is null
     */
    public Options {
        Objects.requireNonNull(outDir, "outDir");
        Objects.requireNonNull(transport, "transport");
        only = List.copyOf(only);
    }

    /**
     * Options that run every scenario on {@code transport}.
     *
     * @param redisUri see the record component
     * @param seed see the record component
     * @param longTier see the record component
     * @param outDir see the record component
     * @param transport see the record component
     * @throws NullPointerException if {@code outDir} or {@code transport} is null
     */
    public Options(String redisUri, long seed, boolean longTier, Path outDir, ClientTransport transport) {
        this(redisUri, seed, longTier, outDir, List.of(), transport);
    }

    /**
     * Options that run every scenario on {@link ClientTransport#DEFAULT}.
     *
     * @param redisUri see the record component
     * @param seed see the record component
     * @param longTier see the record component
     * @param outDir see the record component
     * @throws NullPointerException if {@code outDir} is null
     */
    public Options(String redisUri, long seed, boolean longTier, Path outDir) {
        this(redisUri, seed, longTier, outDir, List.of(), ClientTransport.DEFAULT);
    }

    /** The usage text of {@link #parse(String...)}. */
    public static final String USAGE =
            "usage: dlock verify [--redis URI] [--seed N] [--long] [--out DIR] [--only NAMES] [--transport T]\n"
                    + "  --redis URI  run client-side faults against this Redis (server faults are skipped)\n"
                    + "  --seed N     reproduce the fault schedule of an earlier run (default: random, printed)\n"
                    + "  --long       the long tier: three rounds of faults, 2 s leases\n"
                    + "  --out DIR    history directory (default: target/dlock-verify/<seed>)\n"
                    + "  --only NAMES run only these scenarios (comma-separated names, as the report lists them)\n"
                    + "  --transport T  resp or lettuce: the transport of every dlock client of the run (default: "
                    + ClientTransport.DEFAULT.label() + ")";

    /**
     * Parses command-line arguments (no library: the CLI wires these as {@code dlock verify}).
     *
     * @param args the arguments, as described by {@link #USAGE}
     * @return the options
     * @throws IllegalArgumentException naming the argument that is unknown or malformed
     */
    public static Options parse(String... args) {
        String redis = null;
        Long seed = null;
        boolean longTier = false;
        Path out = null;
        List<String> only = List.of();
        ClientTransport transport = ClientTransport.DEFAULT;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--redis" -> redis = value(args, ++i, arg);
                case "--seed" -> {
                    String text = value(args, ++i, arg);
                    try {
                        seed = Long.parseLong(text);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--seed must be an integer, not '" + text + "'");
                    }
                }
                case "--long" -> longTier = true;
                case "--out" -> out = Path.of(value(args, ++i, arg));
                case "--only" ->
                    only = Arrays.stream(value(args, ++i, arg).split(","))
                            .map(String::trim)
                            .filter(n -> !n.isEmpty())
                            .toList();
                case "--transport" -> transport = ClientTransport.of(value(args, ++i, arg), arg);
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
            }
        }
        Verify.chosen(only); // an unknown name fails here, before anything starts
        long chosen = seed != null ? seed : System.nanoTime() & 0xFFFFFFL;
        return new Options(
                redis,
                chosen,
                longTier,
                out != null ? out : Path.of("target", "dlock-verify", "" + chosen),
                only,
                transport);
    }

    private static String value(String[] args, int i, String name) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
        }
        return args[i];
    }
}
