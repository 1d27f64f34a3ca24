package dev.dlock.verify;

import java.io.PrintStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The command-line entry point: {@code java -cp ... dev.dlock.verify.VerifyMain [--redis URI] [--seed N] [--long]
 * [--out DIR] [--only NAMES] [--transport T]}, parsed by picocli ({@link VerifyFlags}). The {@code dlock} CLI mixes
 * the same flags into its {@code verify} command and calls {@link #run(PrintStream, PrintStream, Options)}.
 */
public final class VerifyMain {

    private VerifyMain() {}

    /** What this entry point parses: the run's flags and {@code --help}. */
    @Command(
            name = "dlock verify",
            synopsisHeading = "usage: ",
            description = "The torture run: threads and holder JVMs under scripted faults, five checkers, three"
                    + " negative controls (docs/verification.md).",
            sortOptions = false)
    static final class Line {
        @Mixin
        VerifyFlags flags = new VerifyFlags();

        @Option(
                names = {"-h", "--help"},
                usageHelp = true,
                description = "Print this text.")
        boolean help;
    }

    /**
     * Runs the torture run and exits with its exit code (0 only when clean and every control was caught).
     *
     * @param args the flags of {@link VerifyFlags}, or {@code --help}
     */
    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /**
     * Parses the flags and runs the torture run, printing the report to {@code out}; {@code --help} prints the usage.
     *
     * @param out where the report (or the usage) goes
     * @param err where usage and setup errors go
     * @param args the flags of {@link VerifyFlags}, or {@code --help}
     * @return 0 when clean and every control was caught (or for {@code --help}), 1 when not, 2 for bad arguments or
     *     a failed setup
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        Options options;
        try {
            Line line = parse(args);
            if (line.help) {
                out.print(usage());
                return 0;
            }
            if (line.flags.simulate()) {
                return line.flags.toSimulatedRun().run(out);
            }
            options = line.flags.toOptions();
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
        return run(out, err, options);
    }

    /**
     * Runs the torture run with options already parsed, printing the report to {@code out}.
     *
     * @param out where the report goes
     * @param err where setup errors go
     * @param options the run's options
     * @return 0 when clean and every control was caught, 1 when not, 2 for a failed setup
     */
    public static int run(PrintStream out, PrintStream err, Options options) {
        out.println("dlock verify: seed " + options.seed() + " (rerun with --seed " + options.seed() + ")");
        try {
            Report report = Verify.run(options);
            out.print(report.text());
            return report.exitCode();
        } catch (Exception | LinkageError e) { // LinkageError: a class missing from a broken install
            err.println("dlock verify could not run: " + e);
            return 2;
        }
    }

    /**
     * Parses the arguments with picocli.
     *
     * @throws IllegalArgumentException naming an unknown argument or a flag without its value, followed by the usage
     */
    static Line parse(String... args) {
        Line line = new Line();
        CommandLine cli = new CommandLine(line);
        try {
            cli.parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(problem(e) + "\n" + usage());
        }
        return line;
    }

    /** The usage text that {@code --help} prints and a bad argument is followed by. */
    static String usage() {
        return new CommandLine(new Line()).getUsageMessage(Help.Ansi.OFF);
    }

    private static String problem(ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            return "unknown argument '" + unmatched.getUnmatched().get(0) + "'";
        }
        if (e instanceof CommandLine.MissingParameterException missing) {
            for (ArgSpec spec : missing.getMissing()) {
                if (spec instanceof OptionSpec option) {
                    return option.longestName() + " needs a value";
                }
            }
        }
        return e.getMessage();
    }
}
