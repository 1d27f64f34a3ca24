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

    int exitCode() {
        return exitCode;
    }
}
