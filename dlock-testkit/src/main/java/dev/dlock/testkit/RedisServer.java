package dev.dlock.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * A real {@code redis-server} process on a free loopback port, with its own temporary data directory and fault
 * injection ({@link #pause()}, {@link #kill()}, {@link #restart()}, ...).
 *
 * <p>Create one with {@link #builder()}. All faults signal only this server's own process. The server keeps its port
 * and data directory across {@link #stop()}/{@link #kill()} and {@link #start()}, so with {@linkplain Builder#aof(boolean)
 * AOF} enabled the data survives a crash. A JVM shutdown hook SIGKILLs servers that were never closed. Internal
 * timeouts (10 s readiness, 5 s socket, 10 s graceful stop) are scaled by {@link Timing}.
 *
 * <p>This class is thread-safe: lifecycle methods are synchronized, and {@link #command(String...)} may be called from
 * any thread (it is not blocked by a concurrent lifecycle call, so another thread can {@link #resume()} a paused server
 * while a command waits).
 */
public final class RedisServer implements AutoCloseable {

    private static final String HOST = RedisLauncher.HOST;
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Path binary;
    private final String version;
    private final boolean aof;
    private final String password;
    private final Path dataDir;
    private final RedisLauncher launcher;

    private int port; // guarded by this; 0 until the first successful start
    private Process process; // guarded by this
    private boolean paused; // guarded by this
    private boolean closed; // guarded by this

    private RedisServer(Builder builder, Path binary) throws IOException {
        this.binary = binary;
        this.version = RedisBinary.version(binary);
        this.aof = builder.aof;
        this.password = builder.password;
        this.dataDir = Files.createTempDirectory("dlock-redis-");
        ProcessReaper.trackDirectory(dataDir);
        List<String> leadingArgs = List.of();
        if (builder.sentinelConfig != null) {
            Path config = dataDir.resolve("sentinel.conf");
            Files.writeString(config, builder.sentinelConfig, StandardCharsets.UTF_8);
            leadingArgs = List.of(config.toString(), "--sentinel");
        }
        this.launcher = new RedisLauncher(
                binary,
                version,
                aof,
                password,
                List.copyOf(builder.extraArgs),
                dataDir,
                leadingArgs,
                builder.portPicker);
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
     * Resolves the {@code redis-server} binary: environment variable {@code DLOCK_REDIS_SERVER} (a path, or
     * {@code embedded}), then system property {@code dlock.redis.server} (same), then {@code redis-server} on
     * {@code PATH}, then the binary shipped in {@code com.github.codemonstur:embedded-redis} (extracted once per JVM).
     *
     * @return path of an executable {@code redis-server}
     * @throws IllegalStateException if no binary can be found or extracted
     */
    public static Path resolveBinary() {
        return RedisBinary.resolve();
    }

    /**
     * The Redis 6.2 {@code redis-server} shipped in {@code com.github.codemonstur:embedded-redis}, extracted once per
     * JVM: the oldest version dlock supports, for tests of a fallback (such as classic pub/sub in a 6.2 cluster).
     *
     * @return its path, or empty if the artifact has no binary for this OS and architecture
     * @throws IllegalStateException if it cannot be extracted
     */
    public static java.util.Optional<Path> embeddedBinary() {
        if (RedisBinary.embeddedResourceName(System.getProperty("os.name"), System.getProperty("os.arch")) == null) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(RedisBinary.embedded());
    }

    /**
     * Starts the server again after {@link #stop()} or {@link #kill()}, on the same port and data directory (the first
     * start, done by {@link Builder#start()}, picks a free port and retries with another one if binding fails).
     *
     * @throws IllegalStateException if the server is running, closed, or does not become ready within 10 s (the
     *     message contains the tail of {@code redis.log})
     */
    public synchronized void start() {
        ensureOpen();
        if (isRunning()) {
            throw new IllegalStateException("redis-server is already running on port " + port);
        }
        RedisLauncher.Launched launched = launcher.launch(port);
        port = launched.port();
        process = launched.process();
        paused = false;
    }

    /**
     * Freezes the server with SIGSTOP: connections are accepted by the kernel but nothing is answered.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void pause() {
        Signals.stop(runningProcess());
        paused = true;
    }

    /**
     * Resumes a {@linkplain #pause() paused} server with SIGCONT.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized void resume() {
        Signals.cont(runningProcess());
        paused = false;
    }

    /** Kills the server with SIGKILL (no AOF rewrite, no shutdown save) and waits until it is gone; no-op if dead. */
    public synchronized void kill() {
        if (process != null && process.isAlive()) {
            Signals.killAndWait(process);
        }
        paused = false;
    }

    /**
     * Stops the server gracefully: SIGCONT if paused, SIGTERM, and SIGKILL if it has not exited after 10 s; no-op if
     * the server is not running.
     */
    public synchronized void stop() {
        if (process == null || !process.isAlive()) {
            paused = false;
            return;
        }
        if (paused) {
            resume();
        }
        process.destroy();
        try {
            if (!process.waitFor(Timing.scaled(STOP_TIMEOUT).toMillis(), TimeUnit.MILLISECONDS)) {
                Signals.killAndWait(process);
            }
        } catch (InterruptedException e) {
            Signals.killAndWait(process);
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Simulates a crash: SIGKILL, then {@link #start()} on the same port and data directory.
     *
     * @throws IllegalStateException if the server is closed or does not come back
     */
    public synchronized void restart() {
        kill();
        start();
    }

    /**
     * Stops the server (resuming it first if paused) and deletes its data directory; idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } finally {
            ProcessReaper.deleteRecursively(dataDir);
            ProcessReaper.untrackDirectory(dataDir);
        }
    }

    /**
     * Sends one command over a new connection (authenticated when a password is set, 5 s socket timeout).
     *
     * @param args the command and its arguments, for example {@code "PTTL", "lock:a"}
     * @return the reply: {@code String} for simple and bulk strings ({@code null} for nil), {@code Long} for integers,
     *     {@code List<Object>} for arrays (nested error replies appear as {@link RedisErrorReply} elements)
     * @throws RedisErrorReply if Redis answers with an error
     * @throws UncheckedIOException if the connection fails or times out
     * @throws IllegalStateException if the server is closed
     */
    public Object command(String... args) {
        return command(Timing.scaled(SOCKET_TIMEOUT), args);
    }

    /**
     * Like {@link #command(String...)}, with an explicit connect and socket timeout (not scaled).
     *
     * @param timeout connect and read timeout, positive
     * @param args the command and its arguments
     * @return the reply, decoded as described in {@link #command(String...)}
     * @throws RedisErrorReply if Redis answers with an error
     * @throws UncheckedIOException if the connection fails or times out
     * @throws IllegalStateException if the server is closed
     */
    public Object command(Duration timeout, String... args) {
        int target;
        synchronized (this) {
            ensureOpen();
            target = port;
        }
        try (RespConnection connection = RespConnection.open(HOST, target, password, timeout)) {
            return connection.call(args);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Redis command " + (args.length > 0 ? args[0] : "") + " on port " + target + " failed: " + e, e);
        }
    }

    /**
     * Returns the host the server binds to.
     *
     * @return always {@code "127.0.0.1"}
     */
    public String host() {
        return HOST;
    }

    /**
     * Returns the TCP port, stable for the lifetime of this object.
     *
     * @return the port, never 6379
     */
    public synchronized int port() {
        return port;
    }

    /**
     * Returns a Redis URI for clients.
     *
     * @return {@code redis://127.0.0.1:PORT}, or {@code redis://:PASSWORD@127.0.0.1:PORT} when a password is set
     */
    public String uri() {
        String auth = password == null
                ? ""
                : ":" + URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20") + "@";
        return "redis://" + auth + HOST + ":" + port();
    }

    /**
     * Returns the process id of the current (or last) {@code redis-server} process.
     *
     * @return the pid
     */
    public synchronized long pid() {
        return process.pid();
    }

    /**
     * Returns the server's own temporary data directory (holds the AOF files and {@code redis.log}).
     *
     * @return the data directory, deleted by {@link #close()}
     */
    public Path dataDir() {
        return dataDir;
    }

    /**
     * Tells whether AOF persistence ({@code appendfsync always}) is enabled.
     *
     * @return {@code true} if AOF is on
     */
    public boolean isAof() {
        return aof;
    }

    /**
     * Returns the version reported by the binary, e.g. {@code 7.0.15}.
     *
     * @return the version string
     */
    public String version() {
        return version;
    }

    /**
     * Returns the binary this server runs.
     *
     * @return the {@code redis-server} path
     */
    public Path binary() {
        return binary;
    }

    /**
     * Tells whether the process is alive (a paused process counts as running).
     *
     * @return {@code true} if the process is alive
     */
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /**
     * Tells whether the server is currently frozen by {@link #pause()}.
     *
     * @return {@code true} if paused
     */
    public synchronized boolean isPaused() {
        return paused && isRunning();
    }

    @Override
    public synchronized String toString() {
        return "RedisServer{" + HOST + ":" + port + ", version=" + version + ", aof=" + aof + ", running=" + isRunning()
                + (paused ? ", paused" : "") + "}";
    }

    private Process runningProcess() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("redis-server is not running");
        }
        return process;
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("RedisServer is closed");
        }
    }

    /**
     * Configures and starts a {@link RedisServer}.
     *
     * <p>Not thread-safe; use one builder per thread.
     */
    public static final class Builder {

        private boolean aof;
        private String password;
        private final List<String> extraArgs = new ArrayList<>();
        private Path binary;
        private String sentinelConfig;
        private IntSupplier portPicker = RedisLauncher::freePort;

        private Builder() {}

        /**
         * Enables AOF ({@code --appendonly yes --appendfsync always}, data survives {@link RedisServer#restart()}) or
         * disables persistence entirely ({@code --appendonly no --save ""}, the default).
         *
         * @param aof {@code true} to enable AOF
         * @return this builder
         */
        public Builder aof(boolean aof) {
            this.aof = aof;
            return this;
        }

        /**
         * Requires clients to authenticate ({@code --requirepass}).
         *
         * @param password the password, not empty
         * @return this builder
         * @throws IllegalArgumentException if {@code password} is empty
         */
        public Builder password(String password) {
            if (Objects.requireNonNull(password, "password").isEmpty()) {
                throw new IllegalArgumentException("password must not be empty");
            }
            this.password = password;
            return this;
        }

        /**
         * Appends raw {@code redis-server} arguments, e.g. {@code "--maxmemory", "2mb"}; do not pass {@code --port},
         * {@code --bind} or {@code --dir}.
         *
         * @param args arguments passed through unchanged
         * @return this builder
         */
        public Builder extraArgs(String... args) {
            for (String arg : args) {
                extraArgs.add(Objects.requireNonNull(arg, "extra argument"));
            }
            return this;
        }

        /** Returns a builder with the same settings, unaffected by later calls on this one. */
        Builder copy() {
            return new Builder().with(this);
        }

        /** Replaces every setting of this builder with those of {@code other}. */
        Builder with(Builder other) {
            aof = other.aof;
            password = other.password;
            extraArgs.clear();
            extraArgs.addAll(other.extraArgs);
            binary = other.binary;
            sentinelConfig = other.sentinelConfig;
            portPicker = other.portPicker;
            return this;
        }

        /**
         * Runs a sentinel instead of a data node: {@code config} is written to {@code sentinel.conf} in the data
         * directory (where the sentinel rewrites it, so a restarted sentinel keeps what it learned) and the process is
         * started as {@code redis-server sentinel.conf --sentinel ...}.
         */
        Builder sentinel(String config) {
            this.sentinelConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Picks the port of the first start and of each retry after a bind conflict (default: any free port). */
        Builder portPicker(IntSupplier portPicker) {
            this.portPicker = Objects.requireNonNull(portPicker, "portPicker");
            return this;
        }

        /** Test hook: use this binary instead of {@link RedisServer#resolveBinary()}. */
        Builder binary(Path binary) {
            this.binary = binary;
            return this;
        }

        /**
         * Starts a new server on a free port and waits until it answers PING.
         *
         * @return the running server; close it when done
         * @throws IllegalStateException if no binary is available or the server does not become ready
         */
        public RedisServer start() {
            RedisServer server;
            try {
                server = new RedisServer(this, binary != null ? binary : resolveBinary());
            } catch (IOException e) {
                throw new IllegalStateException("could not create a data directory for redis-server", e);
            }
            try {
                server.start();
                return server;
            } catch (RuntimeException | Error e) {
                server.close();
                throw e;
            }
        }
    }
}
