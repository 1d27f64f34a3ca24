package dev.dlock.verify;

import java.nio.file.Path;
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
 * @param lanes how many scenarios run side by side, each lane with servers (unless {@code redisUri}), a key prefix and
 *     a runner of its own; 1 runs them one after another
 */
public record Options(
        String redisUri,
        long seed,
        boolean longTier,
        Path outDir,
        List<String> only,
        ClientTransport transport,
        int lanes) {

    /**
     * Validates the options.
     *
     * @param redisUri see the record component
     * @param seed see the record component
     * @param longTier see the record component
     * @param outDir see the record component
     * @param only see the record component
     * @param transport see the record component
     * @param lanes see the record component
     * @throws NullPointerException if {@code outDir}, {@code only} or {@code transport} is null
     * @throws IllegalArgumentException if {@code lanes} is less than 1
     */
    public Options {
        Objects.requireNonNull(outDir, "outDir");
        Objects.requireNonNull(transport, "transport");
        only = List.copyOf(only);
        if (lanes < 1) {
            throw new IllegalArgumentException("--lanes must be at least 1, was " + lanes);
        }
    }

    /**
     * Options whose scenarios run one after another.
     *
     * @param redisUri see the record component
     * @param seed see the record component
     * @param longTier see the record component
     * @param outDir see the record component
     * @param only see the record component
     * @param transport see the record component
     * @throws NullPointerException if {@code outDir}, {@code only} or {@code transport} is null
     */
    public Options(
            String redisUri, long seed, boolean longTier, Path outDir, List<String> only, ClientTransport transport) {
        this(redisUri, seed, longTier, outDir, only, transport, 1);
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

    /**
     * Parses command-line arguments as {@code VerifyMain} does (picocli, {@link VerifyFlags}).
     *
     * @param args the arguments: {@code [--redis URI] [--seed N] [--long] [--out DIR] [--only NAMES] [--transport T]
     *     [--lanes N]}
     * @return the options
     * @throws IllegalArgumentException naming the argument that is unknown or malformed
     */
    public static Options parse(String... args) {
        return VerifyMain.parse(args).flags.toOptions();
    }
}
