package dev.dlock.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that runs a real {@link RedisServer} for a test class or for each test method.
 *
 * <p>Register it on a {@code static} field for one server per test class, or on an instance field for a fresh server
 * per test method:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisExtension redis = RedisExtension.builder().aof(true).password("s3cret").build();
 * }</pre>
 *
 * <p>With a per-class server, before every test the extension makes the server usable again if a previous test left it
 * paused or dead, and runs {@code FLUSHALL} on it. Test and lifecycle methods can also declare a {@link RedisServer}
 * parameter (register only one {@code RedisExtension} per class when using parameters, otherwise the resolution is
 * ambiguous). This class is thread-safe; its callbacks are synchronized.
 */
public final class RedisExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private final TopologyExtension<RedisServer> delegate; // starts a copy of the builder: later calls leave it alone

    private RedisExtension(Builder builder) {
        this.delegate = TopologyExtension.of(RedisServer.class, builder.serverBuilder.copy()::start);
    }

    /**
     * Returns a new builder with AOF off, no password and no extra arguments.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the server managed by this extension.
     *
     * @return the running server
     * @throws IllegalStateException if called outside a test (before the server is started or after it is closed)
     */
    public synchronized RedisServer server() {
        if (!delegate.isStarted()) {
            throw new IllegalStateException("RedisExtension has no server: it is only available while tests run");
        }
        return delegate.get();
    }

    /**
     * Starts the per-class server (static field registration).
     *
     * @param context the class context
     */
    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        delegate.beforeAll(context);
    }

    /**
     * Starts a per-method server when none exists yet (instance field registration); otherwise heals the shared server
     * (resume if paused, start if dead) and flushes it.
     *
     * @param context the method context
     */
    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        if (!delegate.isStarted()) {
            delegate.beforeEach(context);
            return;
        }
        RedisServer server = delegate.get();
        if (server.isPaused()) {
            server.resume();
        }
        if (!server.isRunning()) {
            server.start();
        }
        server.command("FLUSHALL");
    }

    /**
     * Closes a per-method server.
     *
     * @param context the method context
     */
    @Override
    public synchronized void afterEach(ExtensionContext context) {
        delegate.afterEach(context);
    }

    /**
     * Closes the per-class server.
     *
     * @param context the class context
     */
    @Override
    public synchronized void afterAll(ExtensionContext context) {
        delegate.afterAll(context);
    }

    /**
     * Supports parameters of type {@link RedisServer}.
     *
     * @param parameterContext the parameter
     * @param extensionContext the current context
     * @return {@code true} for {@code RedisServer} parameters
     */
    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == RedisServer.class;
    }

    /**
     * Returns the managed server.
     *
     * @param parameterContext the parameter
     * @param extensionContext the current context
     * @return the running server
     * @throws IllegalStateException if no server is running for this context
     */
    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return server();
    }

    /**
     * Configures a {@link RedisExtension}; the options are those of {@link RedisServer.Builder}, which it delegates to.
     *
     * <p>Not thread-safe; use one builder per thread.
     */
    public static final class Builder {

        private final RedisServer.Builder serverBuilder = RedisServer.builder();

        private Builder() {}

        /**
         * Enables AOF persistence; see {@link RedisServer.Builder#aof(boolean)}.
         *
         * @param aof {@code true} to enable AOF
         * @return this builder
         */
        public Builder aof(boolean aof) {
            serverBuilder.aof(aof);
            return this;
        }

        /**
         * Requires a password; see {@link RedisServer.Builder#password(String)}.
         *
         * @param password the password, not empty
         * @return this builder
         * @throws IllegalArgumentException if {@code password} is empty
         */
        public Builder password(String password) {
            serverBuilder.password(password);
            return this;
        }

        /**
         * Appends raw {@code redis-server} arguments; see {@link RedisServer.Builder#extraArgs(String...)}.
         *
         * @param args arguments passed through unchanged
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            serverBuilder.extraArgs(args);
            return this;
        }

        /**
         * Creates the extension; the server starts when the first test callback runs.
         *
         * @return the extension
         */
        public RedisExtension build() {
            return new RedisExtension(this);
        }
    }
}
