package dev.dlock.resp;

import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;

/**
 * Connects dlock to one standalone Redis with dlock's own lean RESP2 client: one pipelined command
 * connection that calling threads write to directly, one pub/sub connection opened on the first
 * wait, and no dependency beyond {@code dlock-core}. Registered with {@link java.util.ServiceLoader},
 * so putting this module on the class path instead of {@code dlock-lettuce} is enough; or pass it
 * explicitly:
 *
 * <pre>{@code
 * LockClient client = LockClient.builder()
 *         .redisUri("redis://:secret@redis.example:6379/2")
 *         .transport(new RespTransportFactory())
 *         .build();
 * }</pre>
 *
 * <p>Takes {@code redis://} and {@code rediss://} (TLS, checked against the JVM's default trust
 * store and the host name) URIs with an optional user and password and a database number as path,
 * and {@code redis-sentinel://host:port,host2:port2/db#masterName}: the master the sentinels name,
 * asked again on every reconnect, and on a {@code READONLY} reply (a demoted master). Redis
 * Cluster ({@code redis-cluster://}) needs {@code dlock-lettuce}. This class is thread-safe and
 * stateless.
 */
public final class RespTransportFactory implements TransportFactory {

    /** Creates the factory; {@link java.util.ServiceLoader} calls it. */
    public RespTransportFactory() {}

    /**
     * Opens the command connection and checks it with {@code PING} after {@code AUTH}, {@code
     * SELECT} and {@code CLIENT SETNAME}, all within the command timeout.
     *
     * @param config the validated options
     * @return the connected transport
     * @throws IllegalArgumentException if the URI is a {@code redis-cluster://} URI
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the timeout, no
     *     sentinel answered, or the sentinels do not know the master
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     * @throws dev.dlock.LockConfigurationException if Redis refuses the URI's database index (not
     *     retryable)
     */
    @Override
    public Transport connect(TransportConfig config) {
        return RespTransport.connect(config);
    }

    /**
     * Takes {@code redis://}, {@code rediss://} and {@code redis-sentinel://} URIs; a {@code
     * redis-cluster://} URI is left to another transport on the class path, such as {@code
     * dlock-lettuce}.
     *
     * @param redisUri the URI
     * @return true for {@code redis://}, {@code rediss://} and {@code redis-sentinel://}
     */
    @Override
    public boolean supports(String redisUri) {
        return redisUri.startsWith("redis://")
                || redisUri.startsWith("rediss://")
                || redisUri.startsWith("redis-sentinel://");
    }

    /**
     * Ranks above {@code dlock-lettuce} (0): with both on the class path, standalone and Sentinel URIs get this
     * transport, which needs fewer thread hops and a quarter of the allocation per lock and unlock.
     *
     * @return 10
     */
    @Override
    public int priority() {
        return 10;
    }
}
