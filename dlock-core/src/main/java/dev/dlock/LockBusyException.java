package dev.dlock;

import java.time.Duration;
import java.util.Objects;

/**
 * A lock stayed held by another owner for the whole of a wait, and the caller asked to be told so by
 * an exception rather than by an empty result.
 *
 * <p>The API's own acquires report a busy lock by their result ({@link DistributedLock#tryLock()}
 * returns {@code false}, {@link DistributedLock#tryAcquire(Duration)} an empty {@code Optional});
 * this exception is for callers that turn that result into a failure, such as the Spring Boot
 * starter's {@code @Locked(onBusy = THROW)}. It is a failure to get the lock, not a misuse of the
 * API, and nothing was held or changed in Redis by the attempt.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class LockBusyException extends LockException {
    private static final long serialVersionUID = 1L;

    /** The lock name. */
    private final String lockName;
    /** How long the caller waited for the lock. */
    private final Duration waited;

    /**
     * Creates an exception for the lock {@code lockName}, which stayed busy for {@code waited}.
     *
     * @param lockName the lock's name
     * @param waited how long the caller waited; {@link Duration#ZERO} for a single try
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code waited} is negative
     */
    public LockBusyException(String lockName, Duration waited) {
        super(message(lockName, waited));
        this.lockName = lockName;
        this.waited = waited;
    }

    /**
     * Returns the name of the lock that was busy.
     *
     * @return the lock name
     */
    public String lockName() {
        return lockName;
    }

    /**
     * Returns how long the caller waited before giving up: zero when it tried once without waiting.
     *
     * @return the wait, never negative
     */
    public Duration waited() {
        return waited;
    }

    private static String message(String lockName, Duration waited) {
        Objects.requireNonNull(lockName, "lockName");
        Objects.requireNonNull(waited, "waited");
        if (waited.isNegative()) {
            throw new IllegalArgumentException("waited must not be negative, was " + waited);
        }
        return waited.isZero()
                ? "lock '" + lockName + "' is busy: another owner holds it (one try, no wait)"
                : "lock '" + lockName + "' is busy: another owner held it for the whole wait of " + waited.toMillis()
                        + " ms";
    }
}
