package dev.dlock.internal.options;

import dev.dlock.LockException;
import dev.dlock.LockListener;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Controls;
import dev.dlock.internal.util.LockRuntime;
import dev.dlock.spi.ClientRuntime;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;

/**
 * A client's options, validated before any I/O: the URI (and its masked form for messages), the
 * transport that serves it, and the rest of {@code LockClient.Builder}'s settings. Immutable and
 * thread-safe.
 *
 * @param uri the parsed URI (its masked form for messages)
 * @param leaseTime the lease time of watchdog-renewed leases
 * @param keyPrefix the prefix of every key and channel
 * @param commandTimeout the longest a command may take
 * @param clientName the name the connections announce
 * @param transport the transport factory, given or discovered
 * @param maxNameLength the longest lock name accepted
 * @param callbackExecutor runs application callbacks, or null for the client's own pool
 * @param runtime the clock, timer and executors the client runs on ({@link LockRuntime#SYSTEM} by default)
 * @param controls the verifier's negative controls (none outside verification runs)
 * @param listeners the lock event listeners, in the order they were added
 * @param replicaAck the replicas every granting write waits for, or null for none
 */
public record ClientOptions(
        RedisUri uri,
        Duration leaseTime,
        String keyPrefix,
        Duration commandTimeout,
        String clientName,
        TransportFactory transport,
        int maxNameLength,
        Executor callbackExecutor,
        ClientRuntime runtime,
        Controls controls,
        List<LockListener> listeners,
        ReplicaAck replicaAck) {

    /**
     * Validates the builder's settings for a client of one Redis and picks the transport.
     *
     * @param settings the settings: the URI; the lease time, at least 100 ms; the key prefix, not blank,
     *     without braces; the command timeout, positive; the connection name, not blank, without spaces;
     *     the transport, or null to discover one with {@link ServiceLoader}; replica acknowledgements, 0
     *     or more, with a positive timeout shorter than the lease time
     * @return the options
     * @throws NullPointerException naming the setting that is null
     * @throws IllegalArgumentException naming the setting that is invalid
     * @throws LockException if no transport on the class path supports the URI
     */
    public static ClientOptions of(Settings settings) {
        String redisUri = settings.redisUri();
        Duration leaseTime = settings.leaseTime();
        String keyPrefix = settings.keyPrefix();
        Duration commandTimeout = settings.commandTimeout();
        String clientName = settings.clientName();
        int replicaAcks = settings.replicaAcks();
        Duration replicaAckTimeout = settings.replicaAckTimeout();
        RedisUri uri = checkUri(redisUri);
        Duration lease = Args.leaseTime("leaseTime", leaseTime);
        Args.notBlank("keyPrefix", keyPrefix);
        if (keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("keyPrefix must not contain braces, was " + keyPrefix);
        }
        Duration timeout = Args.positive("commandTimeout", commandTimeout);
        Args.notBlank("clientName", clientName);
        if (clientName.chars().anyMatch(c -> c <= ' ')) {
            throw new IllegalArgumentException("clientName must not contain spaces, was '" + clientName + "'");
        }
        Objects.requireNonNull(replicaAckTimeout, "replicaAckTimeout");
        if (replicaAcks < 0) {
            throw new IllegalArgumentException("replicaAcks must be 0 or more, was " + replicaAcks);
        }
        ReplicaAck ack = replicaAcks == 0
                ? null
                : new ReplicaAck(
                        replicaAcks, Args.positive("replicaAckTimeout", replicaAckTimeout), settings.replicaAckFsync());
        if (ack != null && ack.timeout().compareTo(lease) >= 0) {
            throw new IllegalArgumentException(
                    "replicaAckTimeout must be shorter than the leaseTime (" + lease + "), was " + replicaAckTimeout);
        }
        Controls controls = Controls.fromSystemProperty();
        TransportFactory chosen =
                settings.transport() != null ? settings.transport() : discover(redisUri, uri.masked());
        return new ClientOptions(
                uri,
                lease,
                keyPrefix,
                timeout,
                clientName,
                chosen,
                settings.maxNameLength(),
                settings.callbackExecutor(),
                settings.runtime() != null ? settings.runtime() : LockRuntime.SYSTEM,
                controls,
                settings.listeners(),
                ack);
    }

    /**
     * The URI as given (it may hold a password).
     *
     * @return the URI
     */
    public String redisUri() {
        return uri.raw();
    }

    /**
     * The URI with any password replaced by {@code ***}.
     *
     * @return the masked URI
     */
    public String maskedUri() {
        return uri.masked();
    }

    /** The highest-priority transport on the class path that supports the URI (ties: class path order). */
    static TransportFactory discover(String redisUri, String masked) {
        TransportFactory best = null;
        boolean any = false;
        for (TransportFactory f : ServiceLoader.load(TransportFactory.class, ClientOptions.class.getClassLoader())) {
            any = true;
            if (f.supports(redisUri) && (best == null || f.priority() > best.priority())) {
                best = f;
            }
        }
        if (best == null) {
            throw new LockException(
                    any
                            ? "no dlock transport on the class path supports " + masked
                                    + " (dlock-resp: redis://, rediss:// and redis-sentinel://;"
                                    + " dlock-lettuce: also redis-cluster://)"
                            : "no dlock transport on the class path: add dev.dlock:dlock-resp or dev.dlock:dlock-lettuce");
        }
        return best;
    }

    /** Checks the URI before any I/O: parses it, with the password masked in every message. */
    static RedisUri checkUri(String redisUri) {
        Args.notBlank("redisUri", redisUri);
        return RedisUri.parse(redisUri);
    }
}
