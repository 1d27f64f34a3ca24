package dev.dlock.verify;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The command-line flags of a torture run, as a picocli mixin: {@link VerifyMain}'s command and the {@code dlock
 * verify} command of dlock-cli both mix it in, so they take the same names and defaults, and {@link #toOptions} checks
 * them the same way (a scenario name, the transport, the seed) before anything starts.
 *
 * <p>Not thread-safe: picocli fills one instance per parse, on the parsing thread.
 */
public final class VerifyFlags {
    @Option(
            names = "--redis",
            paramLabel = "URI",
            description = "Run against this Redis: client-side faults only (server faults are skipped); the run"
                    + " never signals it and deletes its own keys at the end.")
    String redis;

    // A string, checked by toOptions, so that both commands word a bad number alike.
    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "Reproduce the fault schedule of an earlier run (default: random, printed).")
    String seed;

    @Option(names = "--long", description = "The long tier: three rounds of faults, 2 s leases.")
    boolean longTier;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "History directory (default: target/dlock-verify/<seed>).")
    Path out;

    @Option(
            names = "--only",
            paramLabel = "NAMES",
            split = ",",
            description = "Run only these scenarios (comma-separated, as the report names them).")
    List<String> only = new ArrayList<>();

    @Option(
            names = "--transport",
            paramLabel = "T",
            defaultValue = ClientTransport.DEFAULT_LABEL,
            description =
                    "resp or lettuce: the transport of every dlock client of the run (default: ${DEFAULT-VALUE}).")
    String transport = ClientTransport.DEFAULT_LABEL;

    /**
     * The options these flags give, checked; a seed is picked when none was given.
     *
     * @return the options
     * @throws IllegalArgumentException naming the flag: a seed that is not an integer, an unknown transport, an
     *     unknown scenario
     */
    public Options toOptions() {
        return toOptions(null);
    }

    /**
     * As {@link #toOptions()}, with a Redis URI for when {@code --redis} was not given (the CLI's {@code
     * $DLOCK_REDIS_URL}).
     *
     * @param redisUriIfNone the URI to use without {@code --redis}; null or blank for the run's own servers
     * @return the options
     * @throws IllegalArgumentException as {@link #toOptions()}
     */
    public Options toOptions(String redisUriIfNone) {
        Long given = null;
        if (seed != null) {
            try {
                given = Long.parseLong(seed.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seed must be an integer, not '" + seed + "'");
            }
        }
        ClientTransport chosenTransport = ClientTransport.of(transport, "--transport");
        List<String> names =
                only.stream().map(String::trim).filter(n -> !n.isEmpty()).toList();
        Verify.chosen(names); // an unknown name fails here, before anything starts
        long chosenSeed = given != null ? given : System.nanoTime() & 0xFFFFFFL;
        String uri = redis != null ? redis : redisUriIfNone == null || redisUriIfNone.isBlank() ? null : redisUriIfNone;
        return new Options(
                uri,
                chosenSeed,
                longTier,
                out != null ? out : Path.of("target", "dlock-verify", Long.toString(chosenSeed)),
                names,
                chosenTransport);
    }
}
