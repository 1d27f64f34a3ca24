package dev.dlock.internal.permit;

import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import dev.dlock.internal.lease.LeaseKind;
import dev.dlock.internal.mutex.NameRelay;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.script.Snapshots;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.wait.AcquireContext;
import dev.dlock.spi.Replicated;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A view of one semaphore (docs/lock-family.md): each acquire runs its own {@link PermitAcquisition}
 * with its own owner id, so the acquires of one client hold permits side by side (no line in this
 * JVM, unlike the mutex's {@link NameRelay}). It is also the {@link LeaseKind} of its leases: released by
 * {@code semaphore-release.lua}, renewed by {@code semaphore-renew.lua}. Immutable and thread-safe.
 */
public final class RedisSemaphore implements DistributedSemaphore, PermitKind {
    /** The first word of a semaphore's record, its {@code LockInfo.kind()}. */
    static final String RECORD_KIND = "semaphore";

    private static final long FOREVER = Long.MAX_VALUE;

    private final SemaphoreKeys keys;
    private final int permits;
    private final String permitsArg;
    private final AcquireContext acquirer;
    private final long leaseMillis;
    private final Callbacks callbacks;
    private final Lifecycle lifecycle;

    public RedisSemaphore(
            SemaphoreKeys keys,
            int permits,
            AcquireContext acquirer,
            long leaseMillis,
            Callbacks callbacks,
            Lifecycle lifecycle) {
        this.keys = keys;
        this.permits = permits;
        this.permitsArg = Integer.toString(permits);
        this.acquirer = acquirer;
        this.leaseMillis = leaseMillis;
        this.callbacks = callbacks;
        this.lifecycle = lifecycle;
    }

    /** The count a semaphore is given: at least 1, before any I/O. */
    public static int checkPermits(String argument, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException(argument + " must be at least 1, was " + permits);
        }
        return permits;
    }

    @Override
    public SemaphoreKeys keys() {
        return keys;
    }

    @Override
    public Lifecycle lifecycle() {
        return lifecycle;
    }

    @Override
    public CompletableFuture<Replicated> send(String[] args) {
        return acquirer.scripts.evalGranting(Scripts.SEMAPHORE_ACQUIRE, keys.scriptKeys(), args);
    }

    @Override
    public String describe() {
        return "semaphore '" + keys.name() + "'";
    }

    @Override
    public String name() {
        return keys.name();
    }

    @Override
    public int permits() {
        return permits;
    }

    private int wanted(int n) {
        if (n < 1 || n > permits) {
            throw new IllegalArgumentException(
                    "n must be between 1 and the semaphore's " + permits + " permits, was " + n);
        }
        return n;
    }

    @Override
    public Lease acquire() {
        return acquire(1);
    }

    @Override
    public Lease acquire(int n) {
        return await(wanted(n), leaseMillis, true, FOREVER);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration wait) {
        return tryAcquire(1, wait);
    }

    @Override
    public Optional<Lease> tryAcquire(int n, Duration wait) {
        int k = wanted(n);
        Duration w = Args.notNegative("wait", wait);
        return Optional.ofNullable(await(k, leaseMillis, true, w.toNanos()));
    }

    @Override
    public Optional<Lease> tryAcquire(int n, Duration wait, Duration leaseTime) {
        int k = wanted(n);
        Duration w = Args.notNegative("wait", wait);
        Duration lease = Args.leaseTime("leaseTime", leaseTime);
        return Optional.ofNullable(await(k, lease.toMillis(), false, w.toNanos()));
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(int n, Duration wait) {
        int k = wanted(n);
        Duration w = Args.notNegative("wait", wait);
        lifecycle.checkOpen();
        return PermitWaits.async(acquirer, callbacks, start(k, leaseMillis, true, w.toNanos()), keys.record());
    }

    private PermitAcquisition start(int n, long leaseMillis, boolean renewed, long waitNanos) {
        return PermitWaits.start(
                acquirer,
                this,
                acquirer.owners.newLease(),
                Integer.toString(n),
                permitsArg,
                leaseMillis,
                renewed,
                waitNanos);
    }

    /**
     * Runs an acquire and waits for it. An interrupt gives it up and waits until permits it was granted
     * meanwhile are released, so an interrupted acquire leaves nothing behind.
     */
    private Lease await(int n, long leaseMillis, boolean renewed, long waitNanos) {
        lifecycle.checkOpen();
        try {
            return PermitWaits.await(
                    acquirer, wait -> start(n, leaseMillis, renewed, wait), waitNanos, keys.record(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for semaphore '" + keys.name() + "'", e);
        }
    }

    @Override
    public int availablePermits() {
        return Snapshots.free(read("0"));
    }

    /** The holder it names is the latest permit holder (the highest token). */
    @Override
    public LockInfo info() {
        return Snapshots.shared(keys.name(), RECORD_KIND, read(Snapshots.QUEUE_SHOWN), Snapshots.ViewFilter.ALL);
    }

    /** Runs shared-info.lua, listing up to {@code shown} waiters; makes the record at first use. */
    private List<?> read(String shown) {
        lifecycle.checkOpen();
        return (List<?>) acquirer.scripts.await(
                acquirer.scripts.eval(
                        Scripts.SHARED_INFO, keys.scriptKeys(), new String[] {RECORD_KIND, permitsArg, shown}),
                keys.record());
    }

    @Override
    public void setPermits(int permits) {
        String count = Integer.toString(checkPermits("permits", permits));
        lifecycle.checkOpen();
        acquirer.scripts.await(
                acquirer.scripts.eval(Scripts.SEMAPHORE_SET, keys.scriptKeys(), new String[] {permitsArg, count}),
                keys.record());
    }

    // ---- LeaseKind: how its leases end and are renewed -------------------------------------------

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        return acquirer.scripts
                .eval(Scripts.SEMAPHORE_RELEASE, keys.scriptKeys(), new String[] {owner})
                .thenApply(reply -> ((Long) reply) >= 1L);
    }

    @Override
    public String toString() {
        return "DistributedSemaphore[" + keys.name() + ", " + permits + " permits]";
    }
}
