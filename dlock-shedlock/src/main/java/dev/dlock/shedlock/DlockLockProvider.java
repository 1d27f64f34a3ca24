package dev.dlock.shedlock;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
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
 * <p>{@code lockAtLeastFor} is honoured when it is zero (the unlock releases the lock) and when it
 * equals {@code lockAtMostFor} (the unlock leaves the lease to end by itself). A {@code lockAtLeastFor}
 * between the two, and {@link SimpleLock#extend}, need a lease's remaining time to be set from the
 * holder, which dlock's API does not offer yet: this provider refuses them with {@link
 * UnsupportedOperationException} rather than hold the lock for less or more than asked.
 *
 * <p>dlock leases last at least 100 ms, so a {@code lockAtMostFor} below that is refused with {@link
 * IllegalArgumentException}. Thread-safe; it holds nothing but its client.
 */
public final class DlockLockProvider implements LockProvider {
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
     * @throws UnsupportedOperationException if {@code lockAtLeastFor} is neither zero nor {@code
     *     lockAtMostFor}
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the command timeout
     * @throws IllegalStateException if the client is closed
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration config) {
        Duration atMost = config.getLockAtMostFor();
        Duration atLeast = config.getLockAtLeastFor();
        if (atMost.compareTo(MIN_LOCK_AT_MOST_FOR) < 0) {
            throw new IllegalArgumentException("lockAtMostFor of lock '" + config.getName() + "' is "
                    + atMost.toMillis() + " ms; dlock leases last at least " + MIN_LOCK_AT_MOST_FOR.toMillis() + " ms");
        }
        boolean keepToTheEnd = atLeast.compareTo(atMost) >= 0;
        if (!atLeast.isZero() && !keepToTheEnd) {
            throw new UnsupportedOperationException("lock '" + config.getName() + "' has lockAtLeastFor " + atLeast
                    + " and lockAtMostFor " + atMost + ": keeping it after the unlock until lockAtLeastFor needs a"
                    + " lease's remaining time to be shortened, which dlock does not offer yet; use lockAtLeastFor"
                    + " 0 or equal to lockAtMostFor");
        }
        return client.lock(config.getName())
                .tryAcquire(Duration.ZERO, atMost)
                .map(lease -> new DlockSimpleLock(config, lease, keepToTheEnd));
    }

    @Override
    public String toString() {
        return "DlockLockProvider[" + client.redisUri() + "]";
    }

    /** One ShedLock lock: a dlock lease with the fixed lease time lockAtMostFor. */
    private static final class DlockSimpleLock extends AbstractSimpleLock {
        private final Lease lease;
        private final boolean keepToTheEnd;

        DlockSimpleLock(LockConfiguration config, Lease lease, boolean keepToTheEnd) {
            super(config);
            this.lease = lease;
            this.keepToTheEnd = keepToTheEnd;
        }

        @Override
        protected void doUnlock() {
            if (keepToTheEnd) {
                return; // lockAtLeastFor = lockAtMostFor: the lease ends by itself at its deadline
            }
            try {
                lease.release();
            } catch (LockLostException e) {
                // The job ran past lockAtMostFor: the lock was gone before the unlock, as ShedLock
                // allows; said loudly, since another run may have started meanwhile.
                LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock-shedlock: lock ''{0}'' ended before its unlock, the job ran longer than"
                                + " lockAtMostFor {1}: {2}",
                        lockConfiguration.getName(),
                        lockConfiguration.getLockAtMostFor(),
                        e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "DlockSimpleLock[" + lease + "]";
        }
    }
}
