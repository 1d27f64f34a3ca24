package dev.dlock.spring.integration;

import dev.dlock.DistributedLock;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import java.util.Objects;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.scheduling.TaskScheduler;

/**
 * A Spring Integration {@link org.springframework.integration.support.locks.LockRegistry} on dlock:
 * {@link #obtain(Object)} returns the {@link DistributedLock} of the key, so everything built on a lock
 * registry ({@code LockRegistryLeaderInitiator}, the aggregator's and the idempotent receiver's locks,
 * {@code executeLocked}) runs on dlock's locks.
 *
 * <pre>{@code
 * LockClient client = LockClient.connect("redis://localhost:6379");
 * LockRegistry registry = new DlockLockRegistry(client, "orders");
 * LockRegistryLeaderInitiator leader = new LockRegistryLeaderInitiator(registry, candidate);
 * }</pre>
 *
 * <p>Where it differs from Spring Integration's {@code RedisLockRegistry}:
 *
 * <ul>
 *   <li>Locks are renewed by the client's watchdog (every third of {@link
 *       LockClient.Builder#leaseTime}) from the moment they are taken; no renewal scheduler is needed,
 *       and a holder whose process dies loses the lock after at most one lease time.
 *   <li>Nothing is kept per key: {@link #obtain(Object)} returns a view that holds no state, and a
 *       thread's hold lives in the client until its last {@code unlock()}. {@link
 *       #expireUnusedOlderThan(long)} therefore has nothing to remove.
 *   <li>{@code unlock()} by a thread that does not hold the lock throws {@link
 *       IllegalMonitorStateException}, as {@link java.util.concurrent.locks.ReentrantLock} does
 *       ({@code RedisLockRegistry} throws {@link IllegalStateException}); {@code unlock()} of a lock
 *       whose lease was lost throws {@link LockLostException} (where {@code RedisLockRegistry} throws
 *       {@link java.util.ConcurrentModificationException}).
 *   <li>Every lock carries a fencing token ({@link DistributedLock#fencingToken()}), for the resource
 *       it guards to reject a holder that was paused past its lease.
 * </ul>
 *
 * <p>The registry holds nothing but its client and is thread-safe; closing the client (not the
 * registry, which has no resources) releases every lock taken through it.
 */
public final class DlockLockRegistry implements ExpirableLockRegistry, RenewableLockRegistry {
    private final LockClient client;
    private final String registryKey;

    /**
     * Creates a registry whose lock names are the keys themselves.
     *
     * @param client the client that takes the locks
     * @throws NullPointerException if {@code client} is null
     */
    public DlockLockRegistry(LockClient client) {
        this.client = Objects.requireNonNull(client, "client");
        this.registryKey = null;
    }

    /**
     * Creates a registry whose lock names are {@code registryKey + ":" + key}, so that registries with
     * different keys never share a lock (as {@code RedisLockRegistry}'s registry key does).
     *
     * @param client the client that takes the locks
     * @param registryKey the prefix of every lock name, not blank
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code registryKey} is blank
     */
    public DlockLockRegistry(LockClient client, String registryKey) {
        this.client = Objects.requireNonNull(client, "client");
        Objects.requireNonNull(registryKey, "registryKey");
        if (registryKey.isBlank()) {
            throw new IllegalArgumentException("registryKey is blank");
        }
        this.registryKey = registryKey;
    }

    /**
     * Returns the lock of {@code lockKey}: reentrant per thread, renewed by the client's watchdog while
     * held. Cheap and without I/O; two calls with one key return locks that agree on who holds it.
     *
     * @param lockKey the key, a {@link String}
     * @return the lock, a {@link DistributedLock}
     * @throws IllegalArgumentException if {@code lockKey} is not a {@code String}, or the lock name is
     *     blank or too long for the client
     * @throws IllegalStateException if the client is closed
     */
    @Override
    public DistributedLock obtain(Object lockKey) {
        return client.lock(nameOf(lockKey));
    }

    /**
     * Does nothing: this registry keeps no lock objects to expire (a lock that is neither held nor
     * waited for leaves nothing behind in the client either).
     *
     * @param age ignored
     */
    @Override
    public void expireUnusedOlderThan(long age) {
        // Nothing is cached per key.
    }

    /**
     * Makes sure the calling thread's hold of {@code lockKey} is still valid for at least half the
     * client's lease time, renewing it now with one round trip if the watchdog has not done so
     * recently. The watchdog renews held locks on its own; this is for code that wants to check,
     * before a step that must not run without the lock, that it still has it.
     *
     * @param lockKey the key, a {@link String}
     * @throws IllegalArgumentException if {@code lockKey} is not a {@code String}
     * @throws IllegalStateException if the calling thread does not hold the lock
     * @throws LockLostException if the hold was lost (its lease ran out, or another owner has the lock)
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached within the command timeout
     */
    @Override
    public void renewLock(Object lockKey) {
        DistributedLock lock = obtain(lockKey);
        if (lock.getHoldCount() == 0) {
            throw new IllegalStateException(
                    "the current thread does not hold lock '" + lock.name() + "', so it cannot renew it");
        }
        // A re-entry confirms the hold (renewing it if it has less than half its lease left) or throws
        // its loss; the unlock that follows only counts down, the thread's first hold stays.
        lock.lock();
        lock.unlock();
    }

    /**
     * Ignored: the client's watchdog renews every held lock, in one batched round trip per third of
     * the lease time.
     *
     * @param renewalTaskScheduler ignored
     */
    @Override
    public void setRenewalTaskScheduler(TaskScheduler renewalTaskScheduler) {
        // The watchdog renews; no scheduler is needed.
    }

    private String nameOf(Object lockKey) {
        Objects.requireNonNull(lockKey, "lockKey");
        if (!(lockKey instanceof String key)) {
            throw new IllegalArgumentException(
                    "lockKey must be a String, not " + lockKey.getClass().getName());
        }
        return registryKey == null ? key : registryKey + ":" + key;
    }

    @Override
    public String toString() {
        return "DlockLockRegistry[" + client.redisUri() + (registryKey == null ? "" : ", " + registryKey) + "]";
    }
}
