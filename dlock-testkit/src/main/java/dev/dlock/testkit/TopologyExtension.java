package dev.dlock.testkit;

import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that starts a topology ({@code SentinelSetup}, {@code ClusterSetup}, {@code IndependentMasters})
 * for a test class or for each test method, and closes it (every process stopped, every directory deleted) after the
 * class or method, whether its tests passed or failed.
 *
 * <p>Get one from the topology's builder and register it on a {@code static} field for one topology per class, or on
 * an instance field for a fresh one per test method:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final TopologyExtension<SentinelSetup> sentinel = SentinelSetup.builder().replicas(1).extension();
 * }</pre>
 *
 * <p>Unlike {@link RedisExtension}, nothing is healed or flushed between the tests of a class: a master one test kills
 * stays dead (or failed over) for the next, so order such tests or use a per-method topology. Test and lifecycle
 * methods can declare a parameter of the topology's type. A JVM that exits without {@code afterAll} still kills the
 * processes and deletes the directories through the testkit's shutdown hook. This class is thread-safe; its callbacks
 * are synchronized.
 *
 * @param <T> the topology type
 */
public final class TopologyExtension<T extends AutoCloseable>
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private final Class<T> type;
    private final Supplier<T> starter;

    private T topology; // guarded by this
    private String ownerId; // unique id of the extension context that started the topology; guarded by this

    private TopologyExtension(Class<T> type, Supplier<T> starter) {
        this.type = Objects.requireNonNull(type, "type");
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /** An extension of {@code type} whose topology {@code starter} starts; the builders' {@code extension()}. */
    static <T extends AutoCloseable> TopologyExtension<T> of(Class<T> type, Supplier<T> starter) {
        return new TopologyExtension<>(type, starter);
    }

    /**
     * Returns the running topology.
     *
     * @return the topology
     * @throws IllegalStateException if called outside a test (before it is started or after it is closed)
     */
    public synchronized T get() {
        if (topology == null) {
            throw new IllegalStateException(
                    "TopologyExtension has no " + type.getSimpleName() + ": it is only available while tests run");
        }
        return topology;
    }

    /**
     * Tells whether a topology is running (between its start and its close).
     *
     * @return {@code true} while started
     */
    public synchronized boolean isStarted() {
        return topology != null;
    }

    /**
     * Starts the per-class topology (static field registration).
     *
     * @param context the class context
     */
    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        startIfAbsent(context);
    }

    /**
     * Starts a per-method topology when none runs yet (instance field registration).
     *
     * @param context the method context
     */
    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        startIfAbsent(context);
    }

    /**
     * Closes a per-method topology.
     *
     * @param context the method context
     */
    @Override
    public synchronized void afterEach(ExtensionContext context) {
        closeIfOwnedBy(context);
    }

    /**
     * Closes the per-class topology.
     *
     * @param context the class context
     */
    @Override
    public synchronized void afterAll(ExtensionContext context) {
        closeIfOwnedBy(context);
    }

    /**
     * Supports parameters of the topology's type.
     *
     * @param parameterContext the parameter
     * @param extensionContext the current context
     * @return {@code true} for parameters of the topology's type
     */
    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == type;
    }

    /**
     * Returns the running topology.
     *
     * @param parameterContext the parameter
     * @param extensionContext the current context
     * @return the topology
     * @throws IllegalStateException if no topology runs for this context
     */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return get();
    }

    private void startIfAbsent(ExtensionContext context) {
        if (topology == null) {
            topology = starter.get();
            ownerId = context.getUniqueId();
        }
    }

    private void closeIfOwnedBy(ExtensionContext context) {
        if (topology != null && context.getUniqueId().equals(ownerId)) {
            try {
                topology.close();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("could not close " + topology, e);
            } finally {
                topology = null;
                ownerId = null;
            }
        }
    }
}
