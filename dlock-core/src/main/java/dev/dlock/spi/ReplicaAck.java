package dev.dlock.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * How many replicas must acknowledge a write, and for how long to wait: the arguments of {@code
 * WAIT replicas timeout}, or of {@code WAITAOF 0 replicas timeout} when {@code fsync} is set (Redis
 * 7.2 and newer, replicas with {@code appendonly yes}). Immutable.
 *
 * @param replicas how many replicas, at least 1
 * @param timeout the longest wait, positive, at most {@link Integer#MAX_VALUE} ms
 * @param fsync whether the replicas must also have written the change to their AOF ({@code WAITAOF})
 */
public record ReplicaAck(int replicas, Duration timeout, boolean fsync) {
    /**
     * Checks the parts.
     *
     * @param replicas see the record component
     * @param timeout see the record component
     * @param fsync see the record component
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code replicas} is below 1 or the timeout is not positive
     */
    public ReplicaAck {
        Objects.requireNonNull(timeout, "timeout");
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
        }
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be positive and at most 24 days, was " + timeout);
        }
    }

    /**
     * The wait's timeout argument in milliseconds.
     *
     * @return the timeout, at least 1
     */
    public long timeoutMillis() {
        return Math.max(1, timeout.toMillis());
    }
}
