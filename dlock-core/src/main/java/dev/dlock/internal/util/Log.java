package dev.dlock.internal.util;

/**
 * The library's one logger, {@code dev.dlock}, through the platform's {@link System.Logger}: no
 * logging dependency, and it reaches SLF4J, Log4j or java.util.logging as the application routes
 * the platform logger (docs/decisions.md, "Logging"). Nothing is logged per acquisition.
 */
public final class Log {
    public static final System.Logger LOG = System.getLogger("dev.dlock");

    private Log() {}
}
