package dev.dlock;

import dev.dlock.internal.connect.Connector;
import dev.dlock.internal.options.Settings;
import dev.dlock.spi.ClientRuntime;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
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
     * @throws LockConfigurationException if Redis refuses the URI's database index ({@code /99} on a
     *     server with 16 databases); not worth retrying
     * @throws LockException if no transport (such as {@code dlock-lettuce}) is on the class path
     */
    static LockClient connect(String redisUri) {
        return builder()
                .redisUri(java.util.Objects.requireNonNull(redisUri, "redisUri"))
                .build();
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
     * Returns the semaphore with this name and count of permits. Cheap: no I/O; the count is checked
     * against (or, the first time, written to) Redis by the semaphore's first call that does I/O
     * ({@link DistributedSemaphore}). The Redlock client does not support semaphores and throws.
     *
     * @param name the semaphore's name: not blank, at most {@value Builder#MAX_NAME_LENGTH}
     *     characters; a name is one kind of lock at a time (a mutex or a semaphore)
     * @param permits how many permits, at least 1
     * @return the semaphore
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long, or {@code permits} is
     *     below 1
     * @throws IllegalStateException if the client is closed
     * @throws UnsupportedOperationException if this client cannot hold semaphores (a Redlock client,
     *     or an implementation that does not override this method)
     */
    default DistributedSemaphore semaphore(String name, int permits) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support semaphores");
    }

    /**
     * Returns the read-write lock with this name: many readers or one writer, strict FIFO (a waiting
     * writer holds back later readers), reentrant per thread, with downgrade and without upgrade
     * ({@link DistributedReadWriteLock}). Cheap: no I/O. The Redlock client does not support
     * read-write locks and throws.
     *
     * @param name the lock's name: not blank, at most {@value Builder#MAX_NAME_LENGTH} characters; a
     *     name is one kind of lock at a time (a mutex, a semaphore or a read-write lock)
     * @return the read-write lock
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     * @throws UnsupportedOperationException if this client cannot hold read-write locks (a Redlock
     *     client, or an implementation that does not override this method)
     */
    default DistributedReadWriteLock readWriteLock(String name) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support read-write locks");
    }

    /**
     * Returns a lock that holds all of the given names or none of them (a multi-lock). Cheap: no I/O.
     *
     * <p>Each name is the same lock as {@link #lock(String) lock(name)}: a multi-lock excludes a plain
     * lock on any of its names and the reverse. The names are sorted and duplicates dropped, and every
     * acquire takes them one by one in that order, each through the name's own FIFO queue and
     * hand-off, within one wait for the whole acquire; so two multi-locks over overlapping names never
     * deadlock, whatever order their names were given in. An acquire that times out, is interrupted,
     * cancelled or fails releases the names it took before it returns. The hold is one {@link Lease}:
     * {@link Lease#fencingTokens()} gives each name's token ({@link Lease#fencingToken()} is the first
     * name's), each name's hold is renewed by the watchdog, the loss of any name's hold is the loss of
     * the whole lease (its listeners run once; the other names are released at once), and a release
     * releases every name, reporting a loss after releasing the others. Thread-owned holds are
     * reentrant per thread and per set of names. {@link DistributedLock#name()} is the sorted names as
     * {@code [a, b]}; {@link DistributedLock#isLocked()} tells whether any of them is held; {@link
     * DistributedLock#info()} is not supported (ask each name). The names may live on different cluster
     * slots or Redlock quorums: all-or-none holds for the lease the application sees, not as one
     * atomic Redis write (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/lock-family.md">docs/lock-family.md</a>).
     *
     * <pre>{@code
     * try (Lease lease = client.multiLock("account-7", "account-3").acquire()) {
     *     transfer(lease.fencingTokens());
     * }
     * }</pre>
     *
     * @param names the lock names, each not blank and at most {@value Builder#MAX_NAME_LENGTH}
     *     characters; at least one, duplicates allowed and dropped
     * @return the multi-lock
     * @throws NullPointerException if {@code names} or one of them is null (naming {@code names[i]})
     * @throws IllegalArgumentException if there is no name, or one is blank or too long (naming {@code
     *     names[i]})
     * @throws IllegalStateException if the client is closed
     * @throws UnsupportedOperationException if this client cannot hold multi-locks (an implementation
     *     that does not override this method)
     */
    default DistributedLock multiLock(String... names) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support multi-locks");
    }

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
     * Closes like {@link #close()} without waiting: the releases of every lease this client still
     * holds are sent before this returns (new acquires are refused from then on), and the future
     * completes, on the callback executor, once Redis answered them, or about one command timeout
     * later, and the client's timer and connections are stopped. Releases not confirmed in time are
     * logged; their locks expire at the end of their lease time. Idempotent: every call, and {@code
     * close()}, close the client once; each call returns the same future.
     *
     * @return a future that completes with null once the client is closed; never exceptionally
     */
    CompletableFuture<Void> closeAsync();

    /**
     * Options for a {@link LockClient}; {@link #build()} validates them all, before any I/O, and
     * connects. Not thread-safe: configure it on one thread.
     */
    final class Builder {
        /** The longest lock name accepted, in characters. */
        public static final int MAX_NAME_LENGTH = 512;

        private Settings settings = Settings.defaults(MAX_NAME_LENGTH);

        Builder() {}

        /**
         * Sets the Redis URI: {@code redis://[[user]:password@]host[:port][/db]}, {@code rediss://}
         * for TLS, or {@code redis-sentinel://}. Required, unless {@link #redlock} names the servers.
         *
         * @param redisUri the URI
         * @return this builder
         */
        public Builder redisUri(String redisUri) {
            settings = settings.withRedisUri(redisUri);
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
            settings = settings.withLeaseTime(leaseTime);
            return this;
        }

        /**
         * Sets the prefix of every Redis key and channel this client uses (default {@code dlock}).
         *
         * @param keyPrefix not blank, without braces
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            settings = settings.withKeyPrefix(keyPrefix);
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
            settings = settings.withCommandTimeout(commandTimeout);
            return this;
        }

        /**
         * Sets the name the connections announce with {@code CLIENT SETNAME} (default {@code dlock}).
         *
         * @param clientName not blank, no spaces
         * @return this builder
         */
        public Builder clientName(String clientName) {
            settings = settings.withClientName(clientName);
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
            settings = settings.withTransport(transport);
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
            settings = settings.withCallbackExecutor(callbackExecutor);
            return this;
        }

        /**
         * Sets where the client's time and threads come from: the clock its deadlines and lease
         * validities are read on, its timer (watchdog rounds, wait timeouts, lease expiries) and the
         * executors it makes (the default callback pool, Redlock's connects). By default the system's
         * monotonic clock, a timer thread of the client's own and pools of daemon threads. For running
         * clients on a simulated clock (dlock's deterministic simulation runs whole clients on one
         * thread this way) or on threads the application manages; see {@link ClientRuntime}. The
         * transport's threads and timeouts stay the transport's.
         *
         * @param runtime the runtime, or null for the system's
         * @return this builder
         */
        public Builder runtime(ClientRuntime runtime) {
            settings = settings.withRuntime(runtime);
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
            settings = settings.withListener(listener);
            return this;
        }

        /**
         * Makes every write that grants or keeps a lock count only once {@code replicas} replicas of
         * the master acknowledged it ({@code WAIT}; default 0, no waiting): an acquire, a hand-off
         * taken from another client, a relay's token reservation, a watchdog renewal and {@link
         * Lease#expireIn}. The fencing counter is written in the same script as the lock, so the
         * acknowledgement covers it and tokens stay monotonic across a failover. An acquire whose write
         * is not acknowledged within {@link #replicaAckTimeout} is undone (owner-checked release) and
         * fails with {@link LockReplicationException}; a renewal that is not acknowledged does not
         * extend the lease and is tried again in the next watchdog round, so the lease is lost (and
         * the lost signal fires) if acknowledgement stays away until it runs out. See
         * <a href="https://github.com/dlock-dev/dlock/blob/main/docs/topologies.md">docs/topologies.md</a>.
         *
         * @param replicas how many replicas, 0 (the default) for none
         * @return this builder
         */
        public Builder replicaAcks(int replicas) {
            settings = settings.withReplicaAck(replicas, settings.replicaAckTimeout(), settings.replicaAckFsync());
            return this;
        }

        /**
         * Sets how long a write waits for its {@link #replicaAcks replica acknowledgements} (default
         * 1 s); shorter than the lease time.
         *
         * @param timeout positive
         * @return this builder
         */
        public Builder replicaAckTimeout(Duration timeout) {
            settings = settings.withReplicaAck(settings.replicaAcks(), timeout, settings.replicaAckFsync());
            return this;
        }

        /**
         * With {@link #replicaAcks}, waits until the replicas have also written each change to their
         * append-only file ({@code WAITAOF 0 n timeout}; Redis 7.2 and newer, replicas with {@code
         * appendonly yes}), not only received it (default false).
         *
         * @param fsync whether to wait for the replicas' AOF
         * @return this builder
         */
        public Builder replicaAckFsync(boolean fsync) {
            settings = settings.withReplicaAck(settings.replicaAcks(), settings.replicaAckTimeout(), fsync);
            return this;
        }

        /**
         * Makes {@link #build()} return a Redlock client over independent masters instead of a client of
         * one Redis: a lock is held when a quorum (N/2 + 1) of the nodes granted it, its validity is the
         * lease time less the time the acquire took and a drift allowance (1% + 2 ms), and it is released
         * on every node. The other options apply to every node ({@link #commandTimeout}, {@link
         * #clientName}, {@link #transport}) or to the whole client; {@link #redisUri} and {@link
         * #replicaAcks} do not combine with it. Waiters poll with a jittered backoff: there is no FIFO
         * hand-off across nodes. See <a href="https://github.com/dlock-dev/dlock/blob/main/docs/redlock.md">docs/redlock.md</a> for the guarantees and what is not supported.
         *
         * @param redisUris at least 3 standalone {@code redis://} or {@code rediss://} URIs of independent
         *     masters, no server twice; checked by {@link #build()}
         * @return this builder
         */
        public Builder redlock(String... redisUris) {
            settings = settings.withRedlock(redisUris);
            return this;
        }

        /**
         * Validates the options, connects and checks the connection with a {@code PING}.
         *
         * @return the connected client
         * @throws IllegalStateException if neither {@link #redisUri} nor {@link #redlock} was called
         *     (or {@code redisUri} was set to null), before any I/O
         * @throws NullPointerException naming the option that is null (the lease time, the key
         *     prefix, the command timeout or the client name; for {@link #redlock} {@code redisUris}
         *     or {@code redisUris[i]}), before any I/O
         * @throws IllegalArgumentException naming the option that is invalid, before any I/O (for
         *     {@link #redlock}: fewer than 3 URIs, one that is not standalone, a server named twice)
         * @throws LockConnectionException if Redis cannot be reached within the command timeout (for
         *     {@link #redlock}: if fewer than a quorum of the nodes can be reached)
         * @throws LockAuthenticationException if Redis refuses the credentials
         * @throws LockConfigurationException if Redis refuses the URI's database index; not worth
         *     retrying, unlike a {@link LockConnectionException}
         * @throws LockException if no transport is on the class path
         */
        public LockClient build() {
            return Connector.connect(settings);
        }
    }
}
