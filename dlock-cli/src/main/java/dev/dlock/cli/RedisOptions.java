package dev.dlock.cli;

import dev.dlock.LockClient;
import dev.dlock.LockException;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code --redis}, {@code --redlock}, {@code --replica-acks}, {@code --prefix} and {@code --verbose},
 * shared by every command that talks to Redis.
 */
final class RedisOptions {
    static final String DEFAULT_URI = "redis://127.0.0.1:6379";
    static final String ENV = "DLOCK_REDIS_URL";
    /** How the builder's messages about the lease time start ({@code leaseTime must be positive, was PT0S}). */
    private static final String LEASE_TIME = "leaseTime ";

    @Option(
            names = "--redis",
            paramLabel = "URI",
            description = "Redis URI (default: $" + ENV + ", else " + DEFAULT_URI + ").")
    String uri;

    @Option(
            names = "--redlock",
            description = "Redlock over independent masters: --redis (or $" + ENV + ") is a comma-separated list"
                    + " of 3 or more standalone URIs, redis://a,redis://b,redis://c (docs/redlock.md).")
    boolean redlock;

    @Option(
            names = "--replica-acks",
            paramLabel = "N",
            defaultValue = "0",
            description = "Every acquire and renewal counts only once N replicas acknowledged it (WAIT);"
                    + " 0, the default, waits for none (docs/topologies.md).")
    int replicaAcks;

    @Option(
            names = "--prefix",
            paramLabel = "PREFIX",
            defaultValue = "dlock",
            description = "Key prefix of the locks (default: ${DEFAULT-VALUE}).")
    String prefix;

    @Option(
            names = "--verbose",
            description = "Also log dlock's info and debug messages and the Redis client libraries' own log lines"
                    + " (stderr). Without it, only dlock's warnings and errors.")
    boolean verbose;

    String uri() {
        if (uri != null) {
            return uri;
        }
        String env = System.getenv(ENV);
        return env == null || env.isBlank() ? DEFAULT_URI : env;
    }

    /** Connects with the default lease time. */
    LockClient connect() {
        return connect(Duration.ofSeconds(30), "--ttl");
    }

    /**
     * Connects, turning option errors into exit 64 and an unreachable Redis into exit 69, both with a
     * message naming the flag or the (masked) URI.
     */
    LockClient connect(Duration leaseTime, String leaseFlag) {
        try {
            LockClient.Builder builder =
                    LockClient.builder().keyPrefix(prefix).leaseTime(leaseTime).clientName("dlock-cli");
            if (redlock) {
                if (replicaAcks != 0) {
                    throw CliFailure.badOption(
                            "--replica-acks",
                            "Redlock's masters have no replicas to wait for; drop --replica-acks",
                            null);
                }
                builder.redlock(uri().split(",", -1));
            } else {
                if (uri().indexOf(',') >= 0 && (uri().startsWith("redis://") || uri().startsWith("rediss://"))) {
                    throw CliFailure.badOption(
                            "--redis",
                            "a list of redis:// URIs needs --redlock (several hosts of one deployment are"
                                    + " redis-sentinel:// or redis-cluster://)",
                            null);
                }
                builder.redisUri(uri()).replicaAcks(replicaAcks);
            }
            return builder.build();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            if (message.startsWith(LEASE_TIME)) { // the builder's check of the lease time: said of the flag
                throw CliFailure.badOption(leaseFlag, Durations.inCliTerms(message.substring(LEASE_TIME.length())), e);
            }
            String flag = message.startsWith("redisUri")
                    ? "--redis"
                    : message.startsWith("keyPrefix")
                            ? "--prefix"
                            : message.startsWith("replicaAcks") ? "--replica-acks" : leaseFlag;
            throw CliFailure.badOption(flag, message, e);
        } catch (LockException e) {
            throw RedisFailures.connecting(e);
        }
    }
}
