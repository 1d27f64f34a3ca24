package dev.dlock.cli;

import dev.dlock.verify.ClientTransport;
import dev.dlock.verify.Options;
import dev.dlock.verify.VerifyMain;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code dlock verify}: the Jepsen-style torture run of {@code dlock-verify}, with its one-screen report. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Runs the torture run: threads and holder JVMs loop acquire, fenced read-modify-write, release,"
                    + " under scripted faults; five checkers read the histories and three deliberately broken"
                    + " variants must be caught. See docs/verification.md.",
            "Without --redis it starts its own redis-servers and also injects server faults (SIGSTOP, restarts,"
                    + " DEBUG SLEEP). With --redis (or $" + RedisOptions.ENV + ") it runs only the client-side"
                    + " faults against that Redis, never signals it, and deletes its own keys at the end."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no violation, every control caught",
            "1:a violation, or a control not caught",
            "64:bad flag",
            "69:could not run (no redis-server, Redis unreachable)"
        })
final class VerifyCommand implements Callable<Integer> {
    @Option(names = "--redis", paramLabel = "URI", description = "Run against this Redis (client-side faults only).")
    String redis;

    @Option(names = "--seed", paramLabel = "N", description = "Reproduce an earlier run's fault schedule.")
    Long seed;

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
            description = "Run only these scenarios (comma-separated, as the report names them).")
    String only;

    @Option(
            names = "--transport",
            paramLabel = "T",
            description =
                    "resp or lettuce: the transport of every dlock client of the run (default: ${DEFAULT-VALUE}).",
            defaultValue = ClientTransport.DEFAULT_LABEL)
    String transport;

    @Override
    public Integer call() {
        List<String> args = new ArrayList<>();
        String uri = redis != null ? redis : System.getenv(RedisOptions.ENV);
        if (uri != null && !uri.isBlank()) {
            args.add("--redis");
            args.add(uri);
        }
        if (seed != null) {
            args.add("--seed");
            args.add(Long.toString(seed));
        }
        if (longTier) {
            args.add("--long");
        }
        if (out != null) {
            args.add("--out");
            args.add(out.toString());
        }
        if (only != null) {
            args.add("--only");
            args.add(only);
        }
        args.add("--transport");
        args.add(transport);
        try {
            Options.parse(args.toArray(new String[0])); // a bad scenario name is a usage error, before any run
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return ExitCodes.USAGE;
        }
        int code = VerifyMain.run(System.out, System.err, args.toArray(new String[0]));
        return switch (code) {
            case 0 -> ExitCodes.OK;
            case 1 -> 1;
            default -> ExitCodes.UNAVAILABLE; // VerifyMain's 2: the run could not be set up
        };
    }
}
