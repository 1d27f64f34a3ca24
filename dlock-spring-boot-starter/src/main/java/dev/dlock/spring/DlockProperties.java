package dev.dlock.spring;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code dlock.*} properties: where the lock client connects (by default where {@code
 * spring.data.redis.*} points) and the options of {@link dev.dlock.LockClient.Builder}. Bound by
 * Spring Boot; not thread-safe while it is being bound, read-only afterwards.
 */
@ConfigurationProperties(prefix = "dlock")
public class DlockProperties {

    /**
     * Whether to auto-configure the LockClient and @Locked. When false, @Locked methods run without a
     * lock.
     */
    private boolean enabled = true;

    /**
     * Redis URI of the lock server, for example redis://:secret@locks.internal:6379/2 or rediss://...
     * When set, spring.data.redis.* is not read at all (nor spring.data.redis.timeout).
     */
    private String redisUrl;

    /**
     * Lease time of watchdog-renewed leases (a @Locked method without leaseTime takes one); the
     * watchdog renews every third of it, and a crashed holder's lock frees after at most this long. At
     * least 100ms.
     */
    private Duration leaseTime = Duration.ofSeconds(30);

    /** Prefix of every Redis key and channel of the locks; applications that share a lock use the same one. */
    private String keyPrefix = "dlock";

    /**
     * How long one Redis command may take before it fails; also the connect timeout. Defaults to
     * spring.data.redis.timeout when that is set (and dlock.redis-url is not), else 5s.
     */
    private Duration commandTimeout;

    /** Name the lock client's connections announce with CLIENT SETNAME; no spaces. */
    private String clientName = "dlock";

    /**
     * Tells whether the starter is on.
     *
     * @return {@code true} unless {@code dlock.enabled=false}
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Turns the starter on or off.
     *
     * @param enabled {@code false} to back off entirely
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Returns the Redis URI that overrides {@code spring.data.redis.*}.
     *
     * @return the URI, or {@code null} when not set
     */
    public String getRedisUrl() {
        return redisUrl;
    }

    /**
     * Sets the Redis URI that overrides {@code spring.data.redis.*}.
     *
     * @param redisUrl the URI, or {@code null}
     */
    public void setRedisUrl(String redisUrl) {
        this.redisUrl = redisUrl;
    }

    /**
     * Returns the lease time of watchdog-renewed leases.
     *
     * @return the lease time
     */
    public Duration getLeaseTime() {
        return leaseTime;
    }

    /**
     * Sets the lease time of watchdog-renewed leases.
     *
     * @param leaseTime at least 100 ms
     */
    public void setLeaseTime(Duration leaseTime) {
        this.leaseTime = leaseTime;
    }

    /**
     * Returns the prefix of the locks' Redis keys.
     *
     * @return the key prefix
     */
    public String getKeyPrefix() {
        return keyPrefix;
    }

    /**
     * Sets the prefix of the locks' Redis keys.
     *
     * @param keyPrefix not blank, without braces
     */
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    /**
     * Returns the command timeout set under {@code dlock.*}.
     *
     * @return the timeout, or {@code null} to take {@code spring.data.redis.timeout} or 5 s
     */
    public Duration getCommandTimeout() {
        return commandTimeout;
    }

    /**
     * Sets the command timeout.
     *
     * @param commandTimeout positive, or {@code null}
     */
    public void setCommandTimeout(Duration commandTimeout) {
        this.commandTimeout = commandTimeout;
    }

    /**
     * Returns the name the connections announce.
     *
     * @return the client name
     */
    public String getClientName() {
        return clientName;
    }

    /**
     * Sets the name the connections announce.
     *
     * @param clientName not blank, no spaces
     */
    public void setClientName(String clientName) {
        this.clientName = clientName;
    }
}
