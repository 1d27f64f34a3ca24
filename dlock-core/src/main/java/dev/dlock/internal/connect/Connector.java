package dev.dlock.internal.connect;

import dev.dlock.LockClient;
import dev.dlock.internal.client.RedisLockClient;
import dev.dlock.internal.options.ClientOptions;
import dev.dlock.internal.options.RedlockOptions;
import dev.dlock.internal.options.Settings;
import dev.dlock.internal.redlock.RedlockClient;

/**
 * The one place that connects a client from the builder's settings: validates them into the options
 * of a client of one Redis or of a Redlock client, before any I/O, then connects that client.
 * Stateless and thread-safe.
 */
public final class Connector {
    private Connector() {}

    /**
     * Validates the settings and connects the client they describe.
     *
     * @param settings the builder's settings
     * @return the connected client
     * @throws NullPointerException naming the setting that is null, before any I/O
     * @throws IllegalArgumentException naming the setting that is invalid, before any I/O
     * @throws dev.dlock.LockConnectionException if Redis (for Redlock: a quorum of the nodes) cannot be
     *     reached within the command timeout
     * @throws dev.dlock.LockAuthenticationException if Redis refuses the credentials
     * @throws dev.dlock.LockException if no transport on the class path supports a URI
     */
    public static LockClient connect(Settings settings) {
        if (settings.redlock()) {
            if (settings.redisUri() != null) {
                throw new IllegalArgumentException("set either redisUri or redlock(...), not both");
            }
            if (settings.replicaAcks() != 0) {
                throw new IllegalArgumentException(
                        "replicaAcks does not apply to redlock(...): its nodes are independent masters");
            }
            return RedlockClient.connect(RedlockOptions.of(settings));
        }
        if (settings.redisUri() == null) {
            throw new IllegalStateException("no Redis URI: call redisUri(\"redis://host:6379\") (or"
                    + " redlock(uri1, uri2, uri3)) on LockClient.builder() before build()");
        }
        return RedisLockClient.connect(ClientOptions.of(settings));
    }
}
