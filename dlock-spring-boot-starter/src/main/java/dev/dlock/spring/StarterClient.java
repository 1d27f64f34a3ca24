package dev.dlock.spring;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockListener;
import java.time.Duration;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.util.StringUtils;

/**
 * Makes the auto-configured {@link LockClient}: checks the {@code dlock.*} properties, naming each one
 * that is wrong, before any I/O; checks the Lettuce beside dlock-lettuce ({@link LettuceVersions});
 * connects, turning a failure into a {@link DlockStartupException} that names the masked URI and the
 * property it came from; and logs one INFO line saying where it connected, through which transport,
 * with which client id. Stateless.
 */
final class StarterClient {
    private static final Log log = LogFactory.getLog(DlockAutoConfiguration.class);
    private static final Duration SHORTEST_LEASE = Duration.ofMillis(100);

    private StarterClient() {}

    /**
     * Builds and connects the client.
     *
     * @param listeners the application's listeners, in order, then the starter's own
     * @throws InvalidConfigurationPropertyValueException naming a {@code dlock.*} (or {@code
     *     spring.data.redis.*}) property that is unusable
     * @throws DlockStartupException if Redis cannot be reached or refuses the credentials, or the
     *     Lettuce beside dlock-lettuce is too old
     */
    static LockClient connect(
            DlockProperties dlock,
            RedisProperties redis,
            RedisConnectionDetails details,
            List<LockListener> listeners,
            List<DlockClientCustomizer> customizers) {
        RedisTarget.Target target = RedisTarget.of(dlock, redis, details);
        Duration timeout = RedisTarget.commandTimeout(dlock, redis);
        check(dlock, timeout);
        LettuceVersions.check(StarterClient.class.getClassLoader());
        LockClient.Builder builder = LockClient.builder()
                .redisUri(target.uri())
                .leaseTime(dlock.getLeaseTime())
                .keyPrefix(dlock.getKeyPrefix())
                .clientName(dlock.getClientName());
        if (timeout != null) {
            builder.commandTimeout(timeout);
        }
        TransportChoice transport = TransportChoice.discover(target.uri());
        if (transport != null) {
            builder.transport(transport);
        }
        listeners.forEach(builder::listener);
        customizers.forEach(customizer -> customizer.customize(builder));
        LockClient client;
        try {
            client = builder.build();
        } catch (LockAuthenticationException e) {
            throw new DlockStartupException(
                    "The dlock lock client could not log in to Redis at " + e.redisUri() + " (from " + target.source()
                            + "): " + reason(e),
                    "Check the username and password of " + target.source() + " (spring.data.redis.username and"
                            + " .password, or the user and password in the URI) against the Redis ACL.",
                    e);
        } catch (LockConnectionException e) {
            throw new DlockStartupException(
                    "The dlock lock client could not connect to Redis at " + e.redisUri() + " (from " + target.source()
                            + "): " + reason(e),
                    "Start Redis there, or point " + target.source()
                            + (target.source().equals("dlock.redis-url")
                                    ? ""
                                    : " (or dlock.redis-url, which wins over it)")
                            + " at the Redis of the locks. To run without Redis (tests, local runs), set"
                            + " dlock.enabled=false: @Locked methods then run without a lock.",
                    e);
        } catch (LockException e) {
            throw new DlockStartupException(
                    "The dlock lock client could not be made for " + target.source() + ": " + e.getMessage(),
                    "Add the transport the message names (docs/spring-boot.md, \"Choosing the transport\"), or point "
                            + target.source() + " (or dlock.redis-url) at a Redis URI it serves.",
                    e);
        }
        log.info("dlock connected to " + client.redisUri() + " (from " + target.source() + ") through "
                + (transport != null && transport.used()
                        ? transport.describe()
                        : "the transport a DlockClientCustomizer set")
                + "; client id " + client.clientId() + ", client name " + dlock.getClientName());
        return client;
    }

    /** The properties' own rules, checked here to name the property rather than the builder's option. */
    private static void check(DlockProperties dlock, Duration timeout) {
        Duration lease = dlock.getLeaseTime();
        if (lease == null || lease.compareTo(SHORTEST_LEASE) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "dlock.lease-time", millis(lease), "dlock.lease-time must be at least 100ms");
        }
        String prefix = dlock.getKeyPrefix();
        if (!StringUtils.hasText(prefix)) {
            throw new InvalidConfigurationPropertyValueException(
                    "dlock.key-prefix", prefix, "dlock.key-prefix must not be blank");
        }
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "dlock.key-prefix",
                    prefix,
                    "dlock.key-prefix must not contain braces (dlock puts each lock name in braces, Redis Cluster's"
                            + " hash tag)");
        }
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            String property = dlock.getCommandTimeout() != null ? "dlock.command-timeout" : "spring.data.redis.timeout";
            throw new InvalidConfigurationPropertyValueException(
                    property, millis(timeout), property + " must be positive");
        }
        String name = dlock.getClientName();
        if (!StringUtils.hasText(name) || name.chars().anyMatch(c -> c <= ' ')) {
            throw new InvalidConfigurationPropertyValueException(
                    "dlock.client-name",
                    name,
                    "dlock.client-name must not be blank or contain spaces (Redis' CLIENT SETNAME refuses them)");
        }
    }

    /** The message without the URI the exception appends, which the description names already. */
    private static String reason(LockConnectionException e) {
        String message = e.getMessage();
        String suffix = " [" + e.redisUri() + "]";
        return message.endsWith(suffix) ? message.substring(0, message.length() - suffix.length()) : message;
    }

    private static String millis(Duration duration) {
        return duration == null ? null : duration.toMillis() + "ms";
    }
}
