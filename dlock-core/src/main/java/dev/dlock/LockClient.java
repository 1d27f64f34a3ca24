package dev.dlock;

import dev.dlock.internal.ClientOptions;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The entry point: a connection to one Redis that hands out {@link DistributedLock}s.
 *
 * <pre>{@code
 * try (LockClient client = LockClient.connect("redis://localhost:6379")) {
 *     try (Lease lease = client.lock("payments").acquire()) {
 *         ledger.append(entry, lease.fencingToken());
 *     }
 * }
 * }</pre>
 *
 * <p>A client owns one command connection, one pub/sub connection (opened on the first wait) and one
 * timer thread that renews all of its leases in batches. Create one per application and share it.
 * This interface's implementations are thread-safe.
 */
public interface LockClient extends AutoCloseable {

    /**
     * Connects with default options to the Redis at {@code redisUri}.
     *
     * @param redisUri for example {@code redis://localhost:6379}, {@code rediss://:secret@host:6380/2}
     * @return a connected client
     * @throws NullPointerException if {@code redisUri} is null
     * @throws IllegalArgumentException if {@code redisUri} is blank or not a Redis URI
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockAuthenticationException if Redis refuses the credentials
     * @throws LockException if no transport (such as {@code dlock-lettuce}) is on the class path
     */
    static LockClient connect(String redisUri) {
        return builder().redisUri(redisUri).build();
    }

    /**
     * Returns a builder for a client with non-default options.
     *
     * @return a new builder
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Returns the lock with this name. Cheap: no I/O, and nothing is retained once the lock is
     * neither held nor waited for.
     *
     * @param name the lock name: not blank, at most {@value Builder#MAX_NAME_LENGTH} characters
     * @return the lock
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     */
    DistributedLock lock(String name);

    /**
     * Returns the operator view of this client's locks: status, list, force unlock ({@link
     * LockAdmin}). Cheap: no I/O; it shares this client's connection.
     *
     * @return the admin view
     * @throws IllegalStateException if the client is closed
     */
    LockAdmin admin();

    /**
     * Returns this client's random id, the prefix of every owner id it writes to Redis.
     *
     * @return the client id
     */
    String clientId();

    /**
     * Returns the Redis URI this client talks to, with any password masked.
     *
     * @return the masked URI
     */
    String redisUri();

    /**
     * Releases every lease this client still holds, stops its timer and closes its connections.
     * Idempotent; waits at most about one command timeout for the releases.
     */
    @Override
    void close();

    /**
     * Options for a {@link LockClient}; {@link #build()} validates them all, before any I/O, and
     * connects. Not thread-safe: configure it on one thread.
     */
    final class Builder {
        /** The longest lock name accepted, in characters. */
        public static final int MAX_NAME_LENGTH = 512;

        private String redisUri;
        private Duration leaseTime = Duration.ofSeconds(30);
        private String keyPrefix = "dlock";
        private Duration commandTimeout = Duration.ofSeconds(5);
        private String clientName = "dlock";
        private TransportFactory transport;
        private Executor callbackExecutor;
        private final List<LockListener> listeners = new ArrayList<>();

        Builder() {}

        /**
         * Sets the Redis URI: {@code redis://[[user]:password@]host[:port][/db]}, {@code rediss://}
         * for TLS, or {@code redis-sentinel://}.
         *
         * @param redisUri the URI
         * @return this builder
         */
        public Builder redisUri(String redisUri) {
            this.redisUri = redisUri;
            return this;
        }

        /**
         * Sets the lease time of watchdog-renewed leases (default 30 s); the watchdog renews every
         * third of it.
         *
         * @param leaseTime at least 100 ms
         * @return this builder
         */
        public Builder leaseTime(Duration leaseTime) {
            this.leaseTime = leaseTime;
            return this;
        }

        /**
         * Sets the prefix of every Redis key and channel this client uses (default {@code dlock}).
         *
         * @param keyPrefix not blank, without braces
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * Sets how long one Redis command may take before it fails with {@link
         * LockConnectionException} (default 5 s); also the connect timeout.
         *
         * @param commandTimeout positive
         * @return this builder
         */
        public Builder commandTimeout(Duration commandTimeout) {
            this.commandTimeout = commandTimeout;
            return this;
        }

        /**
         * Sets the name the connections announce with {@code CLIENT SETNAME} (default {@code dlock}).
         *
         * @param clientName not blank, no spaces
         * @return this builder
         */
        public Builder clientName(String clientName) {
            this.clientName = clientName;
            return this;
        }

        /**
         * Chooses the transport explicitly instead of discovering it with {@link
         * java.util.ServiceLoader}.
         *
         * @param transport the transport factory
         * @return this builder
         */
        public Builder transport(TransportFactory transport) {
            this.transport = transport;
            return this;
        }

        /**
         * Sets the executor that runs application code: the completion of {@link
         * DistributedLock#acquireAsync(Duration)}'s future (and so the stages the application chains
         * on it), and the listeners of {@link Lease#onLost} and {@link Lease#whenLost()}. It never runs
         * on the transport's I/O threads nor on the client's timer, so a callback that blocks delays no
         * other acquire, release or renewal. By default each client has its own pool of daemon threads
         * (named {@code dlock-callback-...}), made on demand and shut down by {@link LockClient#close()}.
         * An executor given here is not shut down by the client; if it refuses a task, the task runs on
         * the thread that completed it, with a warning in the log.
         *
         * @param callbackExecutor the executor, or null for the client's own
         * @return this builder
         */
        public Builder callbackExecutor(Executor callbackExecutor) {
            this.callbackExecutor = callbackExecutor;
            return this;
        }

        /**
         * Adds a listener of the client's lock events (acquires and their outcome, holds started,
         * released and lost, watchdog renewals), for metrics; {@code dlock-micrometer} provides one.
         * May be called more than once; listeners hear events in the order they were added. See
         * {@link LockListener} for the threads they run on.
         *
         * @param listener the listener
         * @return this builder
         * @throws NullPointerException if {@code listener} is null
         */
        public Builder listener(LockListener listener) {
            listeners.add(java.util.Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Validates the options, connects and checks the connection with a {@code PING}.
         *
         * @return the connected client
         * @throws NullPointerException naming the option that is null (the URI, the lease time, the
         *     key prefix, the command timeout or the client name), before any I/O
         * @throws IllegalArgumentException naming the option that is invalid, before any I/O
         * @throws LockConnectionException if Redis cannot be reached within the command timeout
         * @throws LockAuthenticationException if Redis refuses the credentials
         * @throws LockException if no transport is on the class path
         */
        public LockClient build() {
            return ClientOptions.of(
                            redisUri,
                            leaseTime,
                            keyPrefix,
                            commandTimeout,
                            clientName,
                            transport,
                            MAX_NAME_LENGTH,
                            callbackExecutor,
                            listeners)
                    .connect();
        }
    }
}
