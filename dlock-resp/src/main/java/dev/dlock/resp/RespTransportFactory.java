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
 * store and the host name) URIs with an optional user and password and a database number as path.
 * Sentinel and Cluster need {@code dlock-lettuce}. This class is thread-safe and stateless.
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
     * @throws IllegalArgumentException if the URI is a Sentinel URI or its path is not a database number
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the timeout
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     */
    @Override
    public Transport connect(TransportConfig config) {
        return RespTransport.connect(config);
    }

    /**
     * Takes {@code redis://} and {@code rediss://} URIs; a {@code redis-sentinel://} URI is left to
     * another transport on the class path, such as {@code dlock-lettuce}.
     *
     * @param redisUri the URI
     * @return true for {@code redis://} and {@code rediss://}
     */
    @Override
    public boolean supports(String redisUri) {
        return redisUri.startsWith("redis://") || redisUri.startsWith("rediss://");
    }

    /**
     * Ranks above {@code dlock-lettuce} (0): with both on the class path, standalone URIs get this
     * transport, which needs fewer thread hops and a quarter of the allocation per lock and unlock.
     *
     * @return 10
     */
    @Override
    public int priority() {
        return 10;
    }
}
