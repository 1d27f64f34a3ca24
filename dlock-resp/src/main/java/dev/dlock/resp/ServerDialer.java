package dev.dlock.resp;

import dev.dlock.spi.RedisUri;
import java.time.Duration;

/**
 * Opens the connections of a channel, on its first connect and on every reconnect: to the one server
 * of a {@code redis://} URI, or to the master the sentinels of a {@code redis-sentinel://} URI name
 * at that moment ({@link SentinelDialer}). Implementations are thread-safe.
 */
interface ServerDialer {

    /**
     * The dialer for a URI.
     *
     * @throws IllegalArgumentException for a {@code redis-cluster://} URI, which this transport does
     *     not serve
     */
    static ServerDialer of(RedisUri uri) {
        return switch (uri.topology()) {
            case STANDALONE -> new Direct(RedisEndpoint.of(uri));
            case SENTINEL -> new SentinelDialer(uri);
            case CLUSTER ->
                throw new IllegalArgumentException("dlock-resp does not serve Redis Cluster (" + uri.masked()
                        + "); use dlock-lettuce for redis-cluster:// URIs");
        };
    }

    /**
     * Connects and shakes hands within {@code timeout}; see {@link Connection#open}.
     *
     * @throws dev.dlock.LockConnectionException if no server can be reached in time
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     */
    Connection open(String clientName, Duration timeout, String maskedUri);

    /**
     * Whether a {@code READONLY} reply means the master was demoted and the connection is to be
     * dropped, so that the reconnect finds the new master. A standalone URI names one server, which
     * a reconnect would reach again, so it does not.
     */
    boolean followsMaster();

    /** The one server of a standalone URI. */
    record Direct(RedisEndpoint endpoint) implements ServerDialer {
        @Override
        public Connection open(String clientName, Duration timeout, String maskedUri) {
            return Connection.open(endpoint, clientName, timeout, maskedUri);
        }

        @Override
        public boolean followsMaster() {
            return false;
        }
    }
}
