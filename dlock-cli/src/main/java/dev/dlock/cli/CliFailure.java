package dev.dlock.cli;

/** A failure that ends a command with a message on stderr and a given exit code. */
final class CliFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    CliFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    CliFailure(int exitCode, String message) {
        this(exitCode, message, null);
    }

    /** Exit 64 for a bad value of a flag; the message names the flag as picocli's own messages do. */
    static CliFailure badOption(String flag, String problem, Throwable cause) {
        return new CliFailure(ExitCodes.USAGE, "invalid value for option '" + flag + "': " + problem, cause);
    }

    /** Checks a whole-number flag against its range, failing with exit 64. */
    static void checkRange(String flag, int value, int min, int max) {
        if (value < min || value > max) {
            throw badOption(flag, "must be " + min + ".." + max + ", was " + value, null);
        }
    }

    int exitCode() {
        return exitCode;
    }
}
