package dev.dlock.cli;

/** Exit codes, from sysexits(3) where one fits; documented in docs/cli.md. */
final class ExitCodes {
    static final int OK = 0;
    /** {@code status}: the lock is free. */
    static final int FREE = 1;
    /** EX_USAGE: a bad flag, duration or URI. */
    static final int USAGE = 64;
    /** EX_UNAVAILABLE: Redis unreachable or refused the credentials. */
    static final int UNAVAILABLE = 69;
    /** EX_SOFTWARE: the lease was lost while the command ran, or the demo's verdict failed. */
    static final int SOFTWARE = 70;
    /** EX_TEMPFAIL: the lock stayed busy; {@code --conflict-exit-code} changes it. */
    static final int TEMPFAIL = 75;
    /** As a shell reports a command it cannot run. */
    static final int CANNOT_RUN = 127;

    private ExitCodes() {}
}
