package dev.dlock.spring;

import dev.dlock.LockClient;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code dlock} health: UP when the lock client gets an answer from Redis to a read of the lock
 * {@value #PROBE_LOCK_NAME} (one round trip, nothing written, bounded by the command timeout), DOWN
 * with the exception otherwise. Details: the Redis URI (password masked) and the client id, the prefix
 * of the holder ids that {@code dlock list} shows for this application. Thread-safe.
 */
public class DlockHealthIndicator extends AbstractHealthIndicator {

    /** The lock the probe reads; nobody takes it. */
    public static final String PROBE_LOCK_NAME = "dlock-health-probe";

    private final LockClient client;

    /**
     * Creates the indicator.
     *
     * @param client the lock client to probe
     */
    public DlockHealthIndicator(LockClient client) {
        super("dlock health check failed");
        this.client = client;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.withDetail("redisUri", client.redisUri()).withDetail("clientId", client.clientId());
        client.admin().status(PROBE_LOCK_NAME);
        builder.up();
    }
}
