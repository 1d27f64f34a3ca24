package dev.dlock.verify;

import java.io.PrintStream;

/**
 * The command-line entry point: {@code java -cp ... dev.dlock.verify.VerifyMain [--redis URI] [--seed N] [--long]}.
 * The {@code dlock} CLI calls {@link #run(PrintStream, PrintStream, String...)} for {@code dlock verify}.
 */
public final class VerifyMain {

    private VerifyMain() {}

    /**
     * Runs the torture run and exits with its exit code (0 only when clean and every control was caught).
     *
     * @param args see {@link Options#USAGE}
     */
    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /**
     * Runs the torture run, printing the report to {@code out}.
     *
     * @param out where the report goes
     * @param err where usage and setup errors go
     * @param args see {@link Options#USAGE}
     * @return 0 when clean and every control was caught, 1 when not, 2 for bad arguments or a failed setup
     */
    public static int run(PrintStream out, PrintStream err, String... args) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 2;
        }
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
}
