package dev.dlock.spring;

import dev.dlock.spi.RedisUri;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * Where the lock client connects and how long its commands may take: {@code dlock.redis-url}, else a
 * service connection's {@link RedisConnectionDetails} (Testcontainers, Docker Compose), else {@code
 * spring.data.redis.*} read as Spring Boot reads them for its own Redis client: standalone as {@code
 * redis[s]://}, Sentinel as {@code redis-sentinel://}, Cluster as {@code redis-cluster://}. What dlock
 * cannot honour (sentinels that need their own password, an SSL bundle) fails here, naming the
 * property, before anything connects. Stateless.
 */
final class RedisTarget {
    /** Boot's own details, made from {@code spring.data.redis.*}; those are read from the properties instead. */
    private static final String PROPERTIES_DETAILS =
            "org.springframework.boot.autoconfigure.data.redis.PropertiesRedisConnectionDetails";

    private static final String INSTEAD = " Set dlock.redis-url to a URI dlock can use for the locks, or define your"
            + " own LockClient bean (the starter then backs off).";

    private RedisTarget() {}

    /**
     * Where the client connects, and which setting says so (for messages that tell what to fix).
     *
     * @param uri the Redis URI, password included
     * @param source the properties (or the bean) the URI was made from, such as {@code dlock.redis-url}
     * @param property the one property to name when the URI is wrong, or null for a bean's details
     */
    record Target(String uri, String source, String property) {}

    /**
     * Returns where the client connects: the URI, checked to be a Redis URI, and its source.
     *
     * @param dlock the {@code dlock.*} properties
     * @param redis the {@code spring.data.redis.*} properties
     * @param details the application's connection details, or null
     * @return the Redis URI, password included, and the setting it came from
     * @throws InvalidConfigurationPropertyValueException for sentinels with a password, TLS with Sentinel
     *     or Cluster, an SSL bundle, or a URL that is not a Redis URI, naming the property
     * @throws IllegalStateException for connection details that dlock cannot honour in the same ways
     */
    static Target of(DlockProperties dlock, RedisProperties redis, RedisConnectionDetails details) {
        Target target = find(dlock, redis, details);
        try {
            RedisUri.parse(target.uri());
        } catch (IllegalArgumentException e) {
            if (target.property() == null) {
                throw new IllegalStateException(target.source() + " do not make a Redis URI: " + e.getMessage(), e);
            }
            throw new InvalidConfigurationPropertyValueException(
                    target.property(), "(not shown: it may hold a password)", e.getMessage());
        }
        return target;
    }

    private static Target find(DlockProperties dlock, RedisProperties redis, RedisConnectionDetails details) {
        if (StringUtils.hasText(dlock.getRedisUrl())) {
            return new Target(dlock.getRedisUrl().trim(), "dlock.redis-url", "dlock.redis-url");
        }
        String bundle = redis.getSsl().getBundle();
        if (StringUtils.hasText(bundle)) {
            throw new InvalidConfigurationPropertyValueException(
                    "spring.data.redis.ssl.bundle",
                    bundle,
                    "dlock's transports cannot use an SSL bundle yet: with spring.data.redis.ssl.enabled=true (or a"
                            + " rediss:// URL) they trust the JVM's default trust store (javax.net.ssl.*)." + INSTEAD);
        }
        if (details != null && !details.getClass().getName().equals(PROPERTIES_DETAILS)) {
            return new Target(
                    fromDetails(details),
                    "the application's RedisConnectionDetails ("
                            + details.getClass().getName() + ")",
                    null);
        }
        return fromProperties(redis);
    }

    /**
     * Returns the command timeout: {@code dlock.command-timeout}, else {@code spring.data.redis.timeout}
     * unless {@code dlock.redis-url} is set.
     *
     * @param dlock the {@code dlock.*} properties
     * @param redis the {@code spring.data.redis.*} properties
     * @return the timeout, or null for the client's default
     */
    static Duration commandTimeout(DlockProperties dlock, RedisProperties redis) {
        if (dlock.getCommandTimeout() != null) {
            return dlock.getCommandTimeout();
        }
        return StringUtils.hasText(dlock.getRedisUrl()) ? null : redis.getTimeout();
    }

    private static Target fromProperties(RedisProperties redis) {
        String url = redis.getUrl();
        int database = StringUtils.hasText(url) ? databaseOf(url) : redis.getDatabase();
        RedisProperties.Sentinel sentinel = redis.getSentinel();
        if (sentinel != null && (sentinel.getMaster() != null || !isEmpty(sentinel.getNodes()))) {
            if (StringUtils.hasLength(sentinel.getPassword())) {
                throw new InvalidConfigurationPropertyValueException(
                        "spring.data.redis.sentinel.password",
                        "(not shown)",
                        "dlock asks the sentinels without credentials (the password in its redis-sentinel:// URI"
                                + " is the master's)." + INSTEAD);
            }
            if (isEmpty(sentinel.getNodes()) || !StringUtils.hasText(sentinel.getMaster())) {
                throw new InvalidConfigurationPropertyValueException(
                        "spring.data.redis.sentinel.nodes",
                        String.valueOf(sentinel.getNodes()),
                        "Redis Sentinel needs both spring.data.redis.sentinel.nodes and .master");
            }
            noTls(redis, "Sentinel");
            return new Target(
                    multiHostUri(
                            "redis-sentinel://",
                            redis.getUsername(),
                            redis.getPassword(),
                            sentinel.getNodes(),
                            "/" + database + "#" + encode(sentinel.getMaster())),
                    "spring.data.redis.sentinel.*",
                    "spring.data.redis.sentinel.nodes");
        }
        RedisProperties.Cluster cluster = redis.getCluster();
        if (cluster != null && !isEmpty(cluster.getNodes())) {
            noTls(redis, "Cluster");
            return new Target(
                    multiHostUri("redis-cluster://", redis.getUsername(), redis.getPassword(), cluster.getNodes(), ""),
                    "spring.data.redis.cluster.nodes",
                    "spring.data.redis.cluster.nodes");
        }
        boolean tls = redis.getSsl().isEnabled();
        if (StringUtils.hasText(url)) {
            String trimmed = url.trim();
            return new Target(
                    tls && trimmed.startsWith("redis://")
                            ? "rediss://" + trimmed.substring("redis://".length())
                            : trimmed,
                    "spring.data.redis.url",
                    "spring.data.redis.url");
        }
        return new Target(
                standaloneUri(
                        tls,
                        redis.getUsername(),
                        redis.getPassword(),
                        redis.getHost(),
                        redis.getPort(),
                        redis.getDatabase()),
                "spring.data.redis.host and .port",
                "spring.data.redis.host");
    }

    private static String fromDetails(RedisConnectionDetails details) {
        String source = "the application's RedisConnectionDetails ("
                + details.getClass().getName() + ")";
        RedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        if (sentinel != null) {
            if (StringUtils.hasLength(sentinel.getPassword())) {
                throw new IllegalStateException(source + " give the sentinels a password; dlock asks the sentinels"
                        + " without credentials." + INSTEAD);
            }
            if (sentinel.getSslBundle() != null) {
                throw new IllegalStateException(source + " ask for TLS to Sentinel; dlock's redis-sentinel:// has no"
                        + " TLS form yet." + INSTEAD);
            }
            List<String> nodes = sentinel.getNodes().stream()
                    .map(node -> host(node.host()) + ":" + node.port())
                    .toList();
            return multiHostUri(
                    "redis-sentinel://",
                    details.getUsername(),
                    details.getPassword(),
                    nodes,
                    "/" + sentinel.getDatabase() + "#" + encode(sentinel.getMaster()));
        }
        RedisConnectionDetails.Cluster cluster = details.getCluster();
        if (cluster != null) {
            if (cluster.getSslBundle() != null) {
                throw new IllegalStateException(source + " ask for TLS to Cluster; dlock's redis-cluster:// has no"
                        + " TLS form yet." + INSTEAD);
            }
            List<String> nodes = cluster.getNodes().stream()
                    .map(node -> host(node.host()) + ":" + node.port())
                    .toList();
            return multiHostUri("redis-cluster://", details.getUsername(), details.getPassword(), nodes, "");
        }
        RedisConnectionDetails.Standalone standalone = details.getStandalone();
        return standaloneUri(
                standalone.getSslBundle() != null,
                details.getUsername(),
                details.getPassword(),
                standalone.getHost(),
                standalone.getPort(),
                standalone.getDatabase());
    }

    private static void noTls(RedisProperties redis, String topology) {
        if (redis.getSsl().isEnabled()) {
            throw new InvalidConfigurationPropertyValueException(
                    "spring.data.redis.ssl.enabled",
                    "true",
                    "dlock's " + topology + " URI has no TLS form yet." + INSTEAD);
        }
    }

    /**
     * {@code scheme[[user]:password@]h1:p1,h2:p2<tail>}: the form of {@code redis-sentinel://} (tail
     * {@code /db#master}) and {@code redis-cluster://} (no tail); credentials percent-encoded, IPv6
     * hosts bracketed.
     */
    static String multiHostUri(String scheme, String user, String password, List<String> nodes, String tail) {
        StringBuilder uri = new StringBuilder(scheme);
        credentials(uri, user, password);
        uri.append(String.join(",", nodes.stream().map(String::trim).toList()));
        return uri.append(tail).toString();
    }

    private static void credentials(StringBuilder uri, String user, String password) {
        if (StringUtils.hasLength(password)) {
            if (StringUtils.hasLength(user)) {
                uri.append(encode(user));
            }
            uri.append(':').append(encode(password)).append('@');
        }
    }

    /** {@code redis[s]://[[user]:password@]host:port[/db]}, credentials percent-encoded, IPv6 hosts bracketed. */
    static String standaloneUri(boolean tls, String user, String password, String host, int port, int database) {
        StringBuilder uri = new StringBuilder(tls ? "rediss://" : "redis://");
        credentials(uri, user, password);
        uri.append(host(host)).append(':').append(port);
        if (database != 0) {
            uri.append('/').append(database);
        }
        return uri.toString();
    }

    /** The database of a {@code spring.data.redis.url}, as Boot reads it: the path's first segment, else 0. */
    private static int databaseOf(String url) {
        String path;
        try {
            path = new URI(url.trim()).getPath();
        } catch (URISyntaxException e) {
            throw new InvalidConfigurationPropertyValueException(
                    "spring.data.redis.url", "(not shown: it may hold a password)", "not a URI: " + e.getMessage());
        }
        String[] segments = StringUtils.hasText(path) ? path.split("/", 3) : new String[0];
        if (segments.length < 2 || segments[1].isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(segments[1]);
        } catch (NumberFormatException e) {
            throw new InvalidConfigurationPropertyValueException(
                    "spring.data.redis.url",
                    "(not shown: it may hold a password)",
                    "its path must be a database number such as /2, was " + path);
        }
    }

    private static String host(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static boolean isEmpty(List<String> list) {
        return list == null || list.isEmpty();
    }
}
