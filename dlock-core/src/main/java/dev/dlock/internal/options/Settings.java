package dev.dlock.internal.options;

import dev.dlock.LockListener;
import dev.dlock.spi.ClientRuntime;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The settings of {@code LockClient.Builder} as the application gave them, not yet checked: the
 * builder holds one and replaces it at each setter. {@link ClientOptions#of(Settings)} and {@link
 * RedlockOptions#of(Settings)} validate them. Immutable and thread-safe (the callback executor,
 * transport factory and listeners are the application's).
 *
 * @param redisUri the URI of one Redis, or null
 * @param leaseTime the lease time of watchdog-renewed leases
 * @param keyPrefix the prefix of every key and channel
 * @param commandTimeout the longest a command may take
 * @param clientName the name the connections announce
 * @param transport the transport factory, or null to discover one
 * @param maxNameLength the longest lock name accepted
 * @param callbackExecutor runs application callbacks, or null for the client's own pool
 * @param runtime the clock, timer and executors the client runs on, or null for the system's
 * @param listeners the lock event listeners, in the order they were added
 * @param replicaAcks how many replicas must acknowledge each granting write, 0 for none
 * @param replicaAckTimeout the longest wait for them
 * @param replicaAckFsync whether they must also have written it to their AOF
 * @param redlock whether the client is a Redlock client
 * @param redlockUris the Redlock masters' URIs as given (null if none were given)
 */
public record Settings(
        String redisUri,
        Duration leaseTime,
        String keyPrefix,
        Duration commandTimeout,
        String clientName,
        TransportFactory transport,
        int maxNameLength,
        Executor callbackExecutor,
        ClientRuntime runtime,
        List<LockListener> listeners,
        int replicaAcks,
        Duration replicaAckTimeout,
        boolean replicaAckFsync,
        boolean redlock,
        List<String> redlockUris) {

    /**
     * Copies the lists (listeners must not be null; Redlock URIs may be, each is checked later).
     *
     * @param redisUri see the record components
     * @param leaseTime see the record components
     * @param keyPrefix see the record components
     * @param commandTimeout see the record components
     * @param clientName see the record components
     * @param transport see the record components
     * @param maxNameLength see the record components
     * @param callbackExecutor see the record components
     * @param runtime see the record components
     * @param listeners see the record components
     * @param replicaAcks see the record components
     * @param replicaAckTimeout see the record components
     * @param replicaAckFsync see the record components
     * @param redlock see the record components
     * @param redlockUris see the record components
     */
    public Settings {
        listeners = List.copyOf(listeners);
        redlockUris = redlockUris == null ? null : java.util.Collections.unmodifiableList(new ArrayList<>(redlockUris));
    }

    /**
     * The builder's defaults: lease time 30 s, key prefix and client name {@code dlock}, command timeout
     * 5 s, no replica acknowledgements (timeout 1 s), no URI.
     *
     * @param maxNameLength the longest lock name accepted
     * @return the defaults
     */
    public static Settings defaults(int maxNameLength) {
        return new Settings(
                null,
                Duration.ofSeconds(30),
                "dlock",
                Duration.ofSeconds(5),
                "dlock",
                null,
                maxNameLength,
                null,
                null,
                List.of(),
                0,
                Duration.ofSeconds(1),
                false,
                false,
                null);
    }

    /**
     * These settings with another URI.
     *
     * @param uri the URI, unchecked
     * @return the new settings
     */
    public Settings withRedisUri(String uri) {
        return with(c -> c.redisUri = uri);
    }

    /**
     * These settings with another lease time.
     *
     * @param time the lease time, unchecked
     * @return the new settings
     */
    public Settings withLeaseTime(Duration time) {
        return with(c -> c.leaseTime = time);
    }

    /**
     * These settings with another key prefix.
     *
     * @param prefix the prefix, unchecked
     * @return the new settings
     */
    public Settings withKeyPrefix(String prefix) {
        return with(c -> c.keyPrefix = prefix);
    }

    /**
     * These settings with another command timeout.
     *
     * @param timeout the timeout, unchecked
     * @return the new settings
     */
    public Settings withCommandTimeout(Duration timeout) {
        return with(c -> c.commandTimeout = timeout);
    }

    /**
     * These settings with another connection name.
     *
     * @param name the name, unchecked
     * @return the new settings
     */
    public Settings withClientName(String name) {
        return with(c -> c.clientName = name);
    }

    /**
     * These settings with a given transport.
     *
     * @param factory the transport factory, or null to discover one
     * @return the new settings
     */
    public Settings withTransport(TransportFactory factory) {
        return with(c -> c.transport = factory);
    }

    /**
     * These settings with another callback executor.
     *
     * @param executor the executor, or null for the client's own pool
     * @return the new settings
     */
    public Settings withCallbackExecutor(Executor executor) {
        return with(c -> c.callbackExecutor = executor);
    }

    /**
     * These settings with another runtime.
     *
     * @param runtime the runtime, or null for the system's
     * @return the new settings
     */
    public Settings withRuntime(ClientRuntime runtime) {
        return with(c -> c.runtime = runtime);
    }

    /**
     * These settings with one more listener, after the others.
     *
     * @param listener the listener, not null
     * @return the new settings
     * @throws NullPointerException if {@code listener} is null
     */
    public Settings withListener(LockListener listener) {
        List<LockListener> more = new ArrayList<>(listeners);
        more.add(java.util.Objects.requireNonNull(listener, "listener"));
        return with(c -> c.listeners = more);
    }

    /**
     * These settings with other replica acknowledgements.
     *
     * @param acks how many replicas, unchecked
     * @param timeout the longest wait, unchecked
     * @param fsync whether to wait for the replicas' AOF
     * @return the new settings
     */
    public Settings withReplicaAck(int acks, Duration timeout, boolean fsync) {
        return with(c -> {
            c.replicaAcks = acks;
            c.replicaAckTimeout = timeout;
            c.replicaAckFsync = fsync;
        });
    }

    /**
     * These settings for a Redlock client over the given masters.
     *
     * @param uris the masters' URIs as given (null, or holding nulls, is reported by the validation)
     * @return the new settings
     */
    public Settings withRedlock(String[] uris) {
        return with(c -> {
            c.redlock = true;
            c.redlockUris = uris == null ? null : java.util.Arrays.asList(uris.clone());
        });
    }

    /** These settings with {@code change} made to a copy of their components: the one place that lists them all. */
    private Settings with(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new Settings(
                c.redisUri,
                c.leaseTime,
                c.keyPrefix,
                c.commandTimeout,
                c.clientName,
                c.transport,
                c.maxNameLength,
                c.callbackExecutor,
                c.runtime,
                c.listeners,
                c.replicaAcks,
                c.replicaAckTimeout,
                c.replicaAckFsync,
                c.redlock,
                c.redlockUris);
    }

    /** The components of one {@link Settings} while a wither changes some: used once, by {@link #with}. */
    private static final class Copy {
        String redisUri;
        Duration leaseTime;
        String keyPrefix;
        Duration commandTimeout;
        String clientName;
        TransportFactory transport;
        int maxNameLength;
        Executor callbackExecutor;
        ClientRuntime runtime;
        List<LockListener> listeners;
        int replicaAcks;
        Duration replicaAckTimeout;
        boolean replicaAckFsync;
        boolean redlock;
        List<String> redlockUris;

        Copy(Settings s) {
            redisUri = s.redisUri;
            leaseTime = s.leaseTime;
            keyPrefix = s.keyPrefix;
            commandTimeout = s.commandTimeout;
            clientName = s.clientName;
            transport = s.transport;
            maxNameLength = s.maxNameLength;
            callbackExecutor = s.callbackExecutor;
            runtime = s.runtime;
            listeners = s.listeners;
            replicaAcks = s.replicaAcks;
            replicaAckTimeout = s.replicaAckTimeout;
            replicaAckFsync = s.replicaAckFsync;
            redlock = s.redlock;
            redlockUris = s.redlockUris;
        }
    }
}
