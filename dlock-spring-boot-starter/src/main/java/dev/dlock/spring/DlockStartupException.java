package dev.dlock.spring;

/**
 * Why the starter could not make the lock client, and what to do about it; {@link DlockFailureAnalyzer}
 * turns it into Spring Boot's "APPLICATION FAILED TO START ... Action:" report. Immutable.
 */
final class DlockStartupException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final String action;

    DlockStartupException(String description, String action, Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    /** What the operator or developer should change, naming the property. */
    String action() {
        return action;
    }
}
