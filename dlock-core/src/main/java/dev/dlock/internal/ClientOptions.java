package dev.dlock.internal;

import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.LockListener;
import dev.dlock.spi.TransportFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;

/**
 * A client's options, validated before any I/O: the URI (and its masked form for messages), the
 * transport that serves it, and the rest of {@code LockClient.Builder}'s settings. Immutable and
 * thread-safe.
 *
 * @param redisUri the URI as given
 * @param maskedUri the URI with any password replaced by {@code ***}
 * @param leaseTime the lease time of watchdog-renewed leases
 * @param keyPrefix the prefix of every key and channel
 * @param commandTimeout the longest a command may take
 * @param clientName the name the connections announce
 * @param transport the transport factory, given or discovered
 * @param maxNameLength the longest lock name accepted
 * @param callbackExecutor runs application callbacks, or null for the client's own pool
 * @param controls the verifier's negative controls (none outside verification runs)
 * @param listeners the lock event listeners, in the order they were added
 */
public record ClientOptions(
        String redisUri,
        String maskedUri,
        Duration leaseTime,
        String keyPrefix,
        Duration commandTimeout,
        String clientName,
        TransportFactory transport,
        int maxNameLength,
        Executor callbackExecutor,
        Controls controls,
        List<LockListener> listeners) {

    /**
     * Validates the builder's settings and picks the transport.
     *
     * @param redisUri the URI
     * @param leaseTime the lease time, at least 100 ms
     * @param keyPrefix the key prefix, not blank, without braces
     * @param commandTimeout the command timeout, positive
     * @param clientName the connection name, not blank, without spaces
     * @param factory the transport, or null to discover one with {@link ServiceLoader}
     * @param maxNameLength the longest lock name
     * @param callbackExecutor the callback executor, or null
     * @param listeners the lock event listeners
     * @return the options
     * @throws IllegalArgumentException naming the setting that is invalid
     * @throws LockException if no transport on the class path supports the URI
     */
    public static ClientOptions of(
            String redisUri,
            Duration leaseTime,
            String keyPrefix,
            Duration commandTimeout,
            String clientName,
            TransportFactory factory,
            int maxNameLength,
            Executor callbackExecutor,
            List<LockListener> listeners) {
        String masked = checkUri(redisUri);
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
        Controls controls = Controls.fromSystemProperty();
        TransportFactory chosen = factory != null ? factory : discover(redisUri, masked);
        return new ClientOptions(
                redisUri,
                masked,
                lease,
                keyPrefix,
                timeout,
                clientName,
                chosen,
                maxNameLength,
                callbackExecutor,
                controls,
                List.copyOf(listeners));
    }

    /**
     * Connects a client with these options and checks the connection with a {@code PING}.
     *
     * @return the connected client
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the command timeout
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     */
    public LockClient connect() {
        return RedisLockClient.connect(this);
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
                                    + " (dlock-resp: redis:// and rediss://; dlock-lettuce: also redis-sentinel://)"
                            : "no dlock transport on the class path: add dev.dlock:dlock-resp or dev.dlock:dlock-lettuce");
        }
        return best;
    }

    /** Checks the URI before any I/O and returns it with the password masked. */
    static String checkUri(String redisUri) {
        Args.notBlank("redisUri", redisUri);
        URI uri;
        try {
            uri = new URI(redisUri);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("redisUri is not a URI: " + e.getMessage(), e);
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("redis") || scheme.equals("rediss") || scheme.equals("redis-sentinel"))) {
            throw new IllegalArgumentException(
                    "redisUri must start with redis://, rediss:// or redis-sentinel://, was " + mask(uri, redisUri));
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("redisUri has no host: " + mask(uri, redisUri));
        }
        return mask(uri, redisUri);
    }

    private static String mask(URI uri, String raw) {
        String userInfo = uri.getRawUserInfo();
        if (userInfo == null) {
            return raw;
        }
        int colon = userInfo.indexOf(':');
        String maskedInfo = colon >= 0 ? userInfo.substring(0, colon) + ":***" : "***";
        return raw.replace(userInfo + "@", maskedInfo + "@");
    }
}
