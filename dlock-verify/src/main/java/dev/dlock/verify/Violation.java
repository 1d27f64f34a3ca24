package dev.dlock.verify;

/**
 * One violation found by a checker.
 *
 * @param checker the checker that found it
 * @param message what was seen, naming clients, tokens and times
 */
record Violation(Checker checker, String message) {

    /** The checkers, numbered as in docs/verification.md. */
    enum Checker {
        MUTUAL_EXCLUSION("1 mutual exclusion"),
        FENCE("2 fenced resource"),
        LOST_UPDATE("3 no lost update"),
        TOKEN_ORDER("4 token order"),
        LIVENESS("5 liveness"),
        FRESH_HOLD("6 fresh hold"),
        PERMITS("7 permit count"),
        READ_WRITE("8 reader/writer exclusion"),
        HOLDERS_EXPIRY("9 holders key expiry");

        final String label;

        Checker(String label) {
            this.label = label;
        }
    }

    @Override
    public String toString() {
        return checker.label + ": " + message;
    }
}
