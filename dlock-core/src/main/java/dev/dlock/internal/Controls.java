package dev.dlock.internal;

import java.util.Locale;

/**
 * The verifier's switch that re-introduces a fixed safety defect, so that a torture run can show it
 * would catch the defect coming back (docs/verification.md, "Negative controls"). Read once per
 * client from the system property {@value #PROPERTY} when the client is built; a client with a
 * control on logs an error at build time. Never set it outside a verification run.
 *
 * @param crossLockGrant {@code cross-lock-grant}: hand-off messages are routed by owner id alone,
 *     whatever the lock and the wait they were issued for
 * @param expiredHandoff {@code expired-handoff}: an acquire returns a hold without checking that it
 *     is still valid (neither when its reply is processed nor on the caller's thread), and waiters refresh their queue entries no more often than every third of the
 *     entry lifetime (at least 333 ms) whatever the lease time
 */
record Controls(boolean crossLockGrant, boolean expiredHandoff) {
    static final String PROPERTY = "dlock.unsafe.control";
    static final Controls NONE = new Controls(false, false);

    /** The controls the system property asks for. */
    static Controls fromSystemProperty() {
        String value = System.getProperty(PROPERTY, "").trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "" -> NONE;
            case "cross-lock-grant" -> new Controls(true, false);
            case "expired-handoff" -> new Controls(false, true);
            default ->
                throw new IllegalArgumentException(
                        PROPERTY + " must be cross-lock-grant or expired-handoff, was '" + value + "'");
        };
    }

    boolean any() {
        return crossLockGrant || expiredHandoff;
    }
}
