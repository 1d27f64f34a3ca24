package dev.dlock.internal;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;

/**
 * A view of one lock name. Thread-owned holds live in the client's map ((name, thread) → the
 * thread's hold through {@code lock()}), so two views of one name agree and nothing stays behind
 * after the last unlock.
 */
final class RedisDistributedLock implements DistributedLock {
    private static final long FOREVER = Long.MAX_VALUE;

    private final RedisLockClient client;
    private final LockKeys keys;

    RedisDistributedLock(RedisLockClient client, LockKeys keys) {
        this.client = client;
        this.keys = keys;
    }

    @Override
    public String name() {
        return keys.name();
    }

    // ---- thread-owned ----------------------------------------------------------------------

    private RedisLockClient.HoldKey ownKey() {
        return new RedisLockClient.HoldKey(keys.name(), Thread.currentThread());
    }

    private RedisLockClient.ThreadHold ownHold() {
        return client.threadHolds().get(ownKey());
    }

    private boolean reenter(RedisLockClient.ThreadHold hold) {
        if (hold == null) {
            return false;
        }
        if (hold.count == Integer.MAX_VALUE) {
            throw new Error("maximum lock count exceeded");
        }
        hold.lease.confirmForReentry(); // as every acquire: valid for at least half the lease, or it throws
        hold.count++;
        return true;
    }

    private boolean lockForThread(long waitNanos, boolean interruptible) throws InterruptedException {
        RedisLockClient.HoldKey key = ownKey();
        if (reenter(client.threadHolds().get(key))) {
            return true;
        }
        RedisLease lease = await(client.threadOwner(), client.leaseMillis(), true, waitNanos, interruptible);
        if (lease == null) {
            return false;
        }
        client.threadHolds().put(key, new RedisLockClient.ThreadHold(key, lease));
        return true;
    }

    @Override
    public void lock() {
        try {
            lockForThread(FOREVER, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        lockForThread(FOREVER, true);
    }

    @Override
    public boolean tryLock() {
        try {
            return lockForThread(0, false);
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Duration wait = Args.notNegative("time", time, unit);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        return lockForThread(wait.toNanos(), true);
    }

    @Override
    public void unlock() {
        RedisLockClient.ThreadHold hold = heldOrThrow();
        if (--hold.count > 0) {
            return;
        }
        client.threadHolds().remove(hold.key, hold);
        hold.lease.release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("dlock offers no conditions: waiting on one would need the"
                + " lock to be given up and retaken atomically across processes, which Redis cannot promise");
    }

    @Override
    public boolean isHeldByCurrentThread() {
        RedisLockClient.ThreadHold hold = ownHold();
        return hold != null && hold.lease.isValid();
    }

    @Override
    public int getHoldCount() {
        RedisLockClient.ThreadHold hold = ownHold();
        return hold == null ? 0 : hold.count;
    }

    @Override
    public long fencingToken() {
        return heldOrThrow().lease.fencingToken();
    }

    @Override
    public Duration remaining() {
        return heldOrThrow().lease.remaining();
    }

    private RedisLockClient.ThreadHold heldOrThrow() {
        RedisLockClient.ThreadHold hold = ownHold();
        if (hold == null) {
            throw new IllegalMonitorStateException(
                    "the current thread does not hold lock '" + keys.name() + "' through this client");
        }
        return hold;
    }

    // ---- lease-owned -----------------------------------------------------------------------

    @Override
    public Lease acquire() {
        return acquireLease(FOREVER, client.leaseMillis(), true);
    }

    @Override
    public Optional<Lease> tryAcquire(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        return Optional.ofNullable(acquireLease(w.toNanos(), client.leaseMillis(), true));
    }

    @Override
    public Optional<Lease> tryAcquire(Duration wait, Duration leaseTime) {
        Duration w = Args.notNegative("wait", wait);
        Duration lease = Args.leaseTime("leaseTime", leaseTime);
        return Optional.ofNullable(acquireLease(w.toNanos(), lease.toMillis(), false));
    }

    private Lease acquireLease(long waitNanos, long leaseMillis, boolean renewed) {
        try {
            return await(client.newLeaseOwner(), leaseMillis, renewed, waitNanos, true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("interrupted while waiting for lock '" + keys.name() + "'", e);
        }
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        client.checkOpen();
        Gate.Turn turn = client.enter(keys, client.newLeaseOwner(), client.leaseMillis(), true, w.toNanos());
        CompletableFuture<Lease> future = new CompletableFuture<>();
        // Completed on the callback executor: the stages the application chains on the future never run
        // on the transport's threads, where they would hold up every other reply and hand-off.
        turn.whenCompleteAsync(
                (lease, error) -> {
                    if (error != null) {
                        future.completeExceptionally(error);
                    } else if (!future.complete(lease) && lease != null) {
                        lease.releaseQuietly(); // the caller cancelled meanwhile
                    }
                },
                client.callbackExecutor());
        future.whenComplete((lease, error) -> {
            if (error instanceof CancellationException) {
                turn.giveUp();
            }
        });
        return future;
    }

    /**
     * Runs an acquire and waits for it. An interrupt cancels it and waits until any lock it took
     * concurrently has been released, so an interrupted acquire leaves nothing behind.
     */
    private RedisLease await(String owner, long leaseMillis, boolean renewed, long waitNanos, boolean interruptible)
            throws InterruptedException {
        client.checkOpen();
        Gate.Turn turn = client.enter(keys, owner, leaseMillis, renewed, waitNanos);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return turn.get();
                } catch (InterruptedException e) {
                    if (interruptible) {
                        settleCancelled(turn);
                        throw e;
                    }
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw client.scripts().translate(e.getCause(), keys.lock());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void settleCancelled(Gate.Turn turn) {
        try {
            turn.giveUp().get(client.commandTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // The acquire's command never answered; a lock it might have taken expires with its lease.
        }
        if (turn.isDone() && !turn.isCompletedExceptionally()) {
            RedisLease won = turn.join();
            if (won != null) {
                won.releaseQuietly();
            }
        }
    }

    // ---- inspection ------------------------------------------------------------------------

    @Override
    public boolean isLocked() {
        return info().isLocked();
    }

    @Override
    public LockInfo info() {
        client.checkOpen();
        List<?> reply = (List<?>) client.scripts()
                .await(
                        client.scripts().eval(Scripts.INFO, new String[] {keys.lock(), keys.fence()}, new String[0]),
                        keys.lock());
        long pttl = (Long) reply.get(0);
        long token = (Long) reply.get(1);
        Optional<String> holder = reply.size() > 2 ? Optional.of((String) reply.get(2)) : Optional.empty();
        Duration remaining = pttl > 0 ? Duration.ofMillis(pttl) : Duration.ZERO;
        return new LockInfo(keys.name(), holder, remaining, token, getHoldCount());
    }

    @Override
    public String toString() {
        return "DistributedLock[" + keys.name() + "]";
    }
}
