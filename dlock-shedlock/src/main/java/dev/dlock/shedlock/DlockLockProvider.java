package dev.dlock.shedlock;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockLostException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * A ShedLock {@link LockProvider} on dlock: {@code @SchedulerLock} jobs and {@code
 * LockingTaskExecutor} run on dlock locks, one lock per ShedLock name.
 *
 * <pre>{@code
 * @Bean
 * LockProvider lockProvider(LockClient client) {
 *     return new DlockLockProvider(client);
 * }
 * }</pre>
 *
 * <p>Each lock is one dlock lease with a fixed lease time of {@code lockAtMostFor}, never renewed by
 * the watchdog: the lock ends at {@code lockAtMostFor} at the latest, whether the job is still running,
 * hangs, or its JVM died. {@code lock} makes one attempt and never waits: it returns empty while the
 * lock is held anywhere else.
 *
 * <p>{@code lockAtLeastFor}: an unlock before {@code lockAtLeastFor} has passed since the lock was
 * asked for does not release the lock but sets the lease's remaining time to what is left of {@code
 * lockAtLeastFor} ({@link Lease#expireIn}, one owner-checked {@code PEXPIRE}), so the lock stays held
 * in Redis, also if this JVM dies afterwards; a later unlock releases it. With {@code lockAtLeastFor}
 * equal to {@code lockAtMostFor} the unlock leaves the lease to end by itself.
 *
 * <p>This provider is an {@link ExtensibleLockProvider}: {@link SimpleLock#extend} sets the lease's
 * remaining time to the new {@code lockAtMostFor}, counted from the extend, and keeps the new {@code
 * lockAtLeastFor} for the unlock; it is empty if the lock had already ended. So ShedLock's {@code
 * KeepAliveLockProvider} can wrap it to keep a long job's lock alive in steps of {@code
 * lockAtMostFor}.
 *
 * <p>dlock leases last at least 100 ms, so a {@code lockAtMostFor} below that is refused by {@code
 * lock} with {@link IllegalArgumentException} (an {@code extend} may set a shorter one). Thread-safe;
 * it holds nothing but its client.
 */
public final class DlockLockProvider implements ExtensibleLockProvider {
    private static final System.Logger LOG = System.getLogger("dev.dlock.shedlock");

    /** The shortest lease dlock takes. */
    static final Duration MIN_LOCK_AT_MOST_FOR = Duration.ofMillis(100);

    private final LockClient client;

    /**
     * Creates a provider that takes its locks with {@code client}.
     *
     * @param client the client; its lease time does not matter, every lock has a fixed lease
     * @throws NullPointerException if {@code client} is null
     */
    public DlockLockProvider(LockClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Tries once to take the lock named in {@code config} for {@code lockAtMostFor}.
     *
     * @param config ShedLock's configuration of this run
     * @return the lock, or empty if it is held elsewhere
     * @throws IllegalArgumentException if {@code lockAtMostFor} is shorter than 100 ms, or the name is
     *     too long for a dlock lock
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the command timeout
     * @throws IllegalStateException if the client is closed
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration config) {
        Duration atMost = config.getLockAtMostFor();
        if (atMost.compareTo(MIN_LOCK_AT_MOST_FOR) < 0) {
            throw new IllegalArgumentException("lockAtMostFor of lock '" + config.getName() + "' is "
                    + atMost.toMillis() + " ms; dlock leases last at least " + MIN_LOCK_AT_MOST_FOR.toMillis() + " ms");
        }
        // Counted from before the acquire, as the lease's own validity and ShedLock's lockAtLeastUntil.
        long start = System.nanoTime();
        return client.lock(config.getName())
                .tryAcquire(Duration.ZERO, atMost)
                .map(lease -> new DlockSimpleLock(config, lease, start));
    }

    @Override
    public String toString() {
        return "DlockLockProvider[" + client.redisUri() + "]";
    }

    /**
     * One ShedLock lock, or one extension of it: a dlock lease with a fixed lease time, which ends
     * {@code lockAtMostFor} after {@code start} and is kept by the unlock until {@code lockAtLeastFor}
     * after it.
     */
    private static final class DlockSimpleLock extends AbstractSimpleLock {
        private final Lease lease;
        /** System.nanoTime() when lockAtMostFor and lockAtLeastFor of this configuration began. */
        private final long start;

        DlockSimpleLock(LockConfiguration config, Lease lease, long start) {
            super(config);
            this.lease = lease;
            this.start = start;
        }

        @Override
        protected void doUnlock() {
            Duration atLeast = lockConfiguration.getLockAtLeastFor();
            long leftNanos = start + atLeast.toNanos() - System.nanoTime();
            if (leftNanos <= 0) {
                release();
            } else if (atLeast.compareTo(lockConfiguration.getLockAtMostFor()) >= 0) {
                return; // lockAtLeastFor = lockAtMostFor: the lease ends by itself at its deadline
            } else if (!lease.expireIn(Duration.ofMillis((leftNanos + 999_999) / 1_000_000))) {
                warnEndedEarly("the lock was gone when the unlock shortened it to lockAtLeastFor");
            }
        }

        private void release() {
            try {
                lease.release();
            } catch (LockLostException e) {
                warnEndedEarly(e.getMessage());
            }
        }

        /**
         * The job ran past lockAtMostFor: the lock was gone before the unlock, as ShedLock allows; said
         * loudly, since another run may have started meanwhile.
         */
        private void warnEndedEarly(String detail) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "dlock-shedlock: lock ''{0}'' ended before its unlock, the job ran longer than"
                            + " lockAtMostFor {1}: {2}",
                    lockConfiguration.getName(),
                    lockConfiguration.getLockAtMostFor(),
                    detail);
        }

        /**
         * Sets the lease's remaining time to the new lockAtMostFor, from now; the new lockAtLeastFor
         * counts from now too. A connection failure is thrown (this lock then stays valid, so an
         * unlock still releases it) after a warning, since KeepAliveLockProvider calls this on its own
         * thread, where a thrown exception is not reported.
         */
        @Override
        protected Optional<SimpleLock> doExtend(LockConfiguration newConfig) {
            long now = System.nanoTime();
            boolean extended;
            try {
                extended = lease.expireIn(newConfig.getLockAtMostFor());
            } catch (LockConnectionException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock-shedlock: lock ''{0}'' could not be extended, it ends no later than before: {1}",
                        newConfig.getName(),
                        e.getMessage());
                throw e;
            }
            return extended ? Optional.of(new DlockSimpleLock(newConfig, lease, now)) : Optional.empty();
        }

        @Override
        public String toString() {
            return "DlockSimpleLock[" + lease + "]";
        }
    }
}
