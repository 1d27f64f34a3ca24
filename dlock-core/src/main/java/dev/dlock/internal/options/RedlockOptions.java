package dev.dlock.internal.options;

import dev.dlock.spi.RedisUri;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

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
     * Validates the Redlock URIs and the builder's other settings and picks each node's transport.
     *
     * @param settings the settings: the masters' URIs, at least {@value #MIN_NODES}, each a standalone
     *     {@code redis://} or {@code rediss://} URI, no server twice; a command timeout shorter than half
     *     the lease time; the rest as {@link ClientOptions#of(Settings)} checks them for each node
     * @return the options
     * @throws NullPointerException if the URIs or one of them is null (named {@code redisUris[i]})
     * @throws IllegalArgumentException naming the URI or setting that is invalid
     * @throws dev.dlock.LockException if no transport on the class path supports a URI
     */
    public static RedlockOptions of(Settings settings) {
        String[] redisUris =
                settings.redlockUris() == null ? null : settings.redlockUris().toArray(new String[0]);
        Duration leaseTime = settings.leaseTime();
        Duration commandTimeout = settings.commandTimeout();
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
            // a node is a client of one master without replica acknowledgements (independent masters)
            nodes.add(ClientOptions.of(
                    settings.withRedisUri(redisUris[i]).withReplicaAck(0, Duration.ofSeconds(1), false)));
        }
        return new RedlockOptions(nodes);
    }
}
