package dev.dlock.internal.redlock;

import dev.dlock.LockClient;
import dev.dlock.LockListener;
import dev.dlock.internal.client.ClientOptions;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * The options of a Redlock client ({@code LockClient.builder().redlock(...)}), validated before any
 * I/O: one {@link ClientOptions} per node, all with the builder's other settings. Immutable and
 * thread-safe.
 *
 * @param nodes the options of each node, in the order the URIs were given
 */
public record RedlockOptions(List<ClientOptions> nodes) {
    /** The fewest independent masters Redlock is built on. */
    public static final int MIN_NODES = 3;

    /**
     * Copies the list.
     *
     * @param nodes see the record component
     */
    public RedlockOptions {
        nodes = List.copyOf(nodes);
    }

    /**
     * Validates the URIs and the builder's settings and picks each node's transport.
     *
     * @param redisUris the masters' URIs: at least {@value #MIN_NODES}, each a standalone {@code redis://}
     *     or {@code rediss://} URI, no server twice
     * @param leaseTime the lease time, at least 100 ms
     * @param keyPrefix the key prefix
     * @param commandTimeout the command timeout of every node
     * @param clientName the connection name
     * @param factory the transport, or null to discover one per URI
     * @param maxNameLength the longest lock name
     * @param callbackExecutor the callback executor, or null
     * @param listeners the lock event listeners
     * @return the options
     * @throws NullPointerException if {@code redisUris} or one of them is null (named {@code redisUris[i]})
     * @throws IllegalArgumentException naming the URI or setting that is invalid (also a command timeout
     *     not shorter than half the lease time)
     * @throws dev.dlock.LockException if no transport on the class path supports a URI
     */
    public static RedlockOptions of(
            String[] redisUris,
            Duration leaseTime,
            String keyPrefix,
            Duration commandTimeout,
            String clientName,
            TransportFactory factory,
            int maxNameLength,
            Executor callbackExecutor,
            List<LockListener> listeners) {
        Objects.requireNonNull(redisUris, "redisUris");
        if (redisUris.length < MIN_NODES) {
            throw new IllegalArgumentException("redlock needs at least " + MIN_NODES
                    + " redisUris of independent masters, was " + redisUris.length);
        }
        if (commandTimeout != null
                && leaseTime != null
                && commandTimeout.multipliedBy(2).compareTo(leaseTime) >= 0) {
            // an acquire waits for every node up to the command timeout and must keep half its lease
            throw new IllegalArgumentException("commandTimeout must be shorter than half the leaseTime (" + leaseTime
                    + ") for redlock: an acquire waits for every node up to it, and a hold needs half its lease"
                    + " left; was " + commandTimeout);
        }
        List<ClientOptions> nodes = new ArrayList<>();
        Set<String> servers = new HashSet<>();
        for (int i = 0; i < redisUris.length; i++) {
            String argument = "redisUris[" + i + "]";
            Objects.requireNonNull(redisUris[i], argument);
            if (redisUris[i].isBlank()) {
                throw new IllegalArgumentException(argument + " must not be blank");
            }
            RedisUri uri;
            try {
                uri = RedisUri.parse(redisUris[i]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(argument + ": " + e.getMessage(), e);
            }
            if (uri.topology() != RedisUri.Topology.STANDALONE) {
                throw new IllegalArgumentException(argument + " must be a standalone redis:// or rediss:// URI for"
                        + " Redlock (independent masters), was " + uri.masked());
            }
            if (!servers.add(uri.hosts().get(0) + "/" + uri.database())) {
                throw new IllegalArgumentException(argument + " names a server that an earlier URI names already ("
                        + uri.masked() + "): Redlock's quorum counts independent masters");
            }
            nodes.add(ClientOptions.of(
                    redisUris[i],
                    leaseTime,
                    keyPrefix,
                    commandTimeout,
                    clientName,
                    factory,
                    maxNameLength,
                    callbackExecutor,
                    listeners,
                    0,
                    Duration.ofSeconds(1),
                    false));
        }
        return new RedlockOptions(nodes);
    }

    /**
     * Connects to every node and builds the client; at least a quorum (N/2 + 1) must be reachable, the
     * others are retried as locks are used.
     *
     * @return the connected client
     * @throws dev.dlock.LockConnectionException if fewer than a quorum of nodes can be reached
     * @throws dev.dlock.LockAuthenticationException if a node refuses the credentials
     */
    public LockClient connect() {
        return RedlockClient.connect(nodes);
    }
}
