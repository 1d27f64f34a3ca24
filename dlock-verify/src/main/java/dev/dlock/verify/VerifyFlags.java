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
    private static final int MAX_LANES = 16;

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
            description = "resp or lettuce: the transport of every dlock client of the run (default: "
                    + ClientTransport.DEFAULT_LABEL + ").")
    String transport; // null when not given, so that --simulate can refuse even the default spelled out

    // A string, checked by toOptions, as --seed is.
    @Option(
            names = "--lanes",
            paramLabel = "N",
            description = "Run N scenarios side by side (1 to 16), each with servers (unless --redis), a key prefix and"
                    + " clients of its own (default: 1, one after another). The checkers measure real time: on a busy host,"
                    + " more lanes can starve holders into liveness violations.")
    String lanes;

    @Option(
            names = "--simulate",
            description = "Run the deterministic simulation instead: whole clients over dlock's own scripts on a"
                    + " simulated Redis, network and clock, checked at every step; no Redis is needed (see"
                    + " docs/verification.md, \"Deterministic simulation\").")
    boolean simulate;

    @Option(
            names = "--seeds",
            paramLabel = "N",
            description = "With --simulate: how many seeds to run, from --seed on (default: "
                    + SimulatedRun.DEFAULT_SEEDS + ").")
    String seeds;

    @Option(
            names = "--steps",
            paramLabel = "N",
            description = "With --simulate: steps per seed (default: " + SimulatedRun.DEFAULT_STEPS + ").")
    String steps;

    @Option(
            names = "--control",
            paramLabel = "NAME",
            description = "With --simulate: re-introduce this fixed defect and stop at the first seed that catches it"
                    + " (one of " + SimulatedRun.CONTROLS_TEXT + ").")
    String control;

    /**
     * Whether {@code --simulate} was given: then {@link #toSimulatedRun()} applies instead of {@link #toOptions()}.
     *
     * @return whether to simulate
     */
    public boolean simulate() {
        return simulate;
    }

    /**
     * The simulated run these flags ask for, checked: {@code --seed} is the first seed (picked when not given).
     *
     * @return the run
     * @throws IllegalArgumentException naming the flag: a number that is not a positive integer, an unknown control,
     *     or a flag of the torture run, which does not apply to a simulation
     */
    public SimulatedRun toSimulatedRun() {
        if (redis != null || longTier || out != null || !only.isEmpty() || transport != null || lanes != null) {
            throw new IllegalArgumentException(
                    "--simulate runs no Redis and no scenarios: --redis, --long, --out, --only, --transport and --lanes"
                            + " do not apply");
        }
        long first = seed != null ? integer("--seed", seed, Long.MIN_VALUE) : System.nanoTime() & 0xFFFFFFL;
        long count = seeds != null ? integer("--seeds", seeds, 1) : SimulatedRun.DEFAULT_SEEDS;
        long perSeed = steps != null ? integer("--steps", steps, 1) : SimulatedRun.DEFAULT_STEPS;
        return new SimulatedRun(first, count, perSeed, control == null ? "" : control.trim());
    }

    private static long integer(String flag, String value, long min) {
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " must be an integer, not '" + value + "'");
        }
        if (n < min) {
            throw new IllegalArgumentException(flag + " must be at least " + min + ", was " + n);
        }
        return n;
    }

    /**
     * The options these flags give, checked; a seed is picked when none was given.
     *
     * @return the options
     * @throws IllegalArgumentException naming the flag: a seed that is not an integer, an unknown transport, an
     *     unknown scenario, or a flag of {@code --simulate} alone
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
        if (seeds != null || steps != null || control != null) {
            throw new IllegalArgumentException("--seeds, --steps and --control need --simulate");
        }
        Long given = null;
        if (seed != null) {
            try {
                given = Long.parseLong(seed.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seed must be an integer, not '" + seed + "'");
            }
        }
        ClientTransport chosenTransport =
                ClientTransport.of(transport == null ? ClientTransport.DEFAULT_LABEL : transport, "--transport");
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
                chosenTransport,
                lanes == null ? 1 : lanes(lanes));
    }

    /** At most {@link #MAX_LANES}: each lane starts servers and holder JVMs of its own. */
    private static int lanes(String value) {
        long n = integer("--lanes", value, 1);
        if (n > MAX_LANES) {
            throw new IllegalArgumentException("--lanes must be at most " + MAX_LANES + ", was " + n);
        }
        return (int) n;
    }
}
