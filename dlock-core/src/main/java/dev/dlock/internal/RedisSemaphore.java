package dev.dlock.internal;

import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockException;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A view of one semaphore (docs/lock-family.md): each acquire runs its own {@link PermitAcquisition}
 * with its own owner id, so the acquires of one client hold permits side by side (no line in this
 * JVM, unlike the mutex's {@link Gate}). It is also the {@link LeaseKind} of its leases: released by
 * {@code semaphore-release.lua}, renewed by {@code semaphore-renew.lua}. Immutable and thread-safe.
 */
final class RedisSemaphore implements DistributedSemaphore, LeaseKind {
    private static final long FOREVER = Long.MAX_VALUE;

    private final SemaphoreKeys keys;
    private final int permits;
    private final String permitsArg;
    private final Acquirer acquirer;
    private final long leaseMillis;
    private final Callbacks callbacks;
    private final Lifecycle lifecycle;

    RedisSemaphore(
            SemaphoreKeys keys,
            int permits,
            Acquirer acquirer,
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
    static int checkPermits(String argument, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException(argument + " must be at least 1, was " + permits);
        }
        return permits;
    }

    SemaphoreKeys keys() {
        return keys;
    }

    String permitsArg() {
        return permitsArg;
    }

    Lifecycle lifecycle() {
        return lifecycle;
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
        PermitAcquisition acquisition = start(k, leaseMillis, true, w.toNanos());
        CompletableFuture<Lease> future = new CompletableFuture<>();
        // Completed on the callback executor: the application's stages never run on the transport's threads.
        acquisition
                .result()
                .whenCompleteAsync(
                        (lease, error) -> {
                            if (error != null) {
                                future.completeExceptionally(acquirer.scripts.translate(error, keys.record()));
                            } else if (!future.complete(lease) && lease != null) {
                                lease.releaseQuietly(); // the caller cancelled meanwhile
                            }
                        },
                        callbacks.executor());
        future.whenComplete((lease, error) -> {
            if (error instanceof CancellationException) {
                acquisition.cancel();
            }
        });
        return future;
    }

    private PermitAcquisition start(int n, long leaseMillis, boolean renewed, long waitNanos) {
        PermitAcquisition acquisition =
                new PermitAcquisition(acquirer, this, acquirer.owners.newLease(), n, leaseMillis, renewed, waitNanos);
        Events events = acquirer.leases.events();
        if (events.enabled()) { // as Gates reports the mutex's: the outcome as the caller sees it, and the wait
            long begun = acquirer.ticker.nanos();
            acquisition
                    .result()
                    .whenComplete((lease, error) ->
                            events.acquire(keys.name(), Events.outcome(lease, error), acquirer.ticker.nanos() - begun));
        }
        acquisition.start();
        return acquisition;
    }

    /**
     * Runs an acquire and waits for it. An interrupt gives it up and waits until permits it was granted
     * meanwhile are released, so an interrupted acquire leaves nothing behind.
     */
    private Lease await(int n, long leaseMillis, boolean renewed, long waitNanos) {
        lifecycle.checkOpen();
        PermitAcquisition acquisition = start(n, leaseMillis, renewed, waitNanos);
        try {
            return acquisition.result().get();
        } catch (InterruptedException e) {
            acquisition.cancel();
            settleCancelled(acquisition);
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for semaphore '" + keys.name() + "'", e);
        } catch (ExecutionException e) {
            throw acquirer.scripts.translate(e.getCause(), keys.record());
        }
    }

    private void settleCancelled(PermitAcquisition acquisition) {
        try {
            RedisLease won = acquisition
                    .result()
                    .get(acquirer.scripts.commandTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
            if (won != null) {
                won.releaseQuietly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | CancellationException e) {
            // Given up without permits, or its command never answered or failed; permits it might have taken come back
            // with its lease.
        }
    }

    @Override
    public int availablePermits() {
        lifecycle.checkOpen();
        List<?> reply = (List<?>) acquirer.scripts.await(
                acquirer.scripts.eval(Scripts.SEMAPHORE_INFO, keys.scriptKeys(), new String[] {permitsArg}),
                keys.record());
        long capacity = (Long) reply.get(0);
        long held = (Long) reply.get(1);
        return (int) Math.max(0, capacity - held);
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

    /** Owner-checked release of an owner's permits (or its queue entry), granting the waiters that now fit. */
    CompletableFuture<Boolean> release(String owner) {
        return acquirer.scripts
                .eval(Scripts.SEMAPHORE_RELEASE, keys.scriptKeys(), new String[] {owner})
                .thenApply(reply -> ((Long) reply) >= 1L);
    }

    @Override
    public CompletableFuture<Boolean> release(RedisLease lease) {
        return release(lease.owner());
    }

    @Override
    public CompletableFuture<Boolean> releaseInRedis(RedisLease lease) {
        return release(lease.owner());
    }

    @Override
    public void lost(RedisLease lease) {
        // nothing in this JVM waits on a permit lease's end: its waiters are queued in Redis
    }

    @Override
    public Script renewScript() {
        return Scripts.SEMAPHORE_RENEW;
    }

    @Override
    public String renewKey(RedisLease lease) {
        return keys.holds();
    }

    @Override
    public String toString() {
        return "DistributedSemaphore[" + keys.name() + ", " + permits + " permits]";
    }
}
