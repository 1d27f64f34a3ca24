package dev.dlock.spring;

import dev.dlock.LockClient;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import java.util.ServiceLoader;

/**
 * The transport the core would discover for a URI (the highest-priority factory on the class path that
 * supports it; ties go to the class path's order), given to the builder explicitly so that the
 * starter can name it in its startup line. A {@link DlockClientCustomizer} may still set another; then
 * this one is never connected ({@link #used}). Thread-safe.
 */
final class TransportChoice implements TransportFactory {
    private final TransportFactory factory;
    private volatile boolean used;

    private TransportChoice(TransportFactory factory) {
        this.factory = factory;
    }

    /**
     * Returns the factory the core would discover for {@code redisUri}, or null if none supports it
     * (the builder then fails with the core's message).
     */
    static TransportChoice discover(String redisUri) {
        TransportFactory best = null;
        for (TransportFactory f : ServiceLoader.load(TransportFactory.class, LockClient.class.getClassLoader())) {
            if (f.supports(redisUri) && (best == null || f.priority() > best.priority())) {
                best = f;
            }
        }
        return best == null ? null : new TransportChoice(best);
    }

    @Override
    public Transport connect(TransportConfig config) {
        used = true;
        return factory.connect(config);
    }

    @Override
    public boolean supports(String redisUri) {
        return factory.supports(redisUri);
    }

    @Override
    public int priority() {
        return factory.priority();
    }

    /** Whether the client was connected through this factory (not one a customizer set). */
    boolean used() {
        return used;
    }

    /** The module and class, as {@code dlock-resp (dev.dlock.resp.RespTransportFactory)}. */
    String describe() {
        return describe(factory.getClass().getName());
    }

    static String describe(String className) {
        if (className.startsWith("dev.dlock.resp.")) {
            return "dlock-resp (" + className + ")";
        }
        if (className.startsWith("dev.dlock.lettuce.")) {
            return "dlock-lettuce (" + className + ")";
        }
        return className;
    }
}
