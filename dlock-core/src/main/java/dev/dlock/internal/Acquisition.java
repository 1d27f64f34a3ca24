package dev.dlock.internal;

import dev.dlock.LockConnectionException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One acquire, run as an asynchronous loop so that no thread blocks while it waits. Protocol: try
 * once; if busy and time is left, join the lock's wake-up channel, wait for Redis to confirm the
 * subscription, then loop: arm the signal, try, and on busy sleep until the signal, the holder's
 * remaining TTL (an expiry publishes nothing) or the deadline, whichever comes first. Only one
 * command is in flight at a time, so a cancellation is seen at the next step: if that step was a
 * successful try, the fresh lock is released before the attempt settles.
 */
final class Acquisition {
    private static final long FOREVER = Long.MAX_VALUE;
    private static final String FENCE_IDLE_ARG = Long.toString(RedisLockClient.FENCE_IDLE_MILLIS);
    private static final VarHandle SETTLED;

    static {
        try {
            SETTLED = MethodHandles.lookup().findVarHandle(Acquisition.class, "settled", CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RedisLockClient client;
    private final LockKeys keys;
    private final String owner;
    private final long leaseMillis;
    private final String leaseArg;
    private final String[] scriptKeys;
    private final boolean renewed;
    private final long deadline; // ticker nanos, or FOREVER
    private final CompletableFuture<RedisLease> result = new CompletableFuture<>();
    // Created only by cancel(); finish() and cancel() each write their side, then read the other's.
    private volatile CompletableFuture<Void> settled;
    private volatile boolean finished;
    private volatile boolean cancelled;
    private WaitRoom.Waiter waiter;
    private ScheduledFuture<?> timer;

    Acquisition(
            RedisLockClient client, LockKeys keys, String owner, long leaseMillis, boolean renewed, long waitNanos) {
        this.client = client;
        this.keys = keys;
        this.owner = owner;
        this.leaseMillis = leaseMillis;
        this.leaseArg = leaseMillis == client.leaseMillis() ? client.leaseMillisArg() : Long.toString(leaseMillis);
        this.scriptKeys = new String[] {keys.lock(), keys.fence()};
        this.renewed = renewed;
        long now = client.ticker().nanos();
        this.deadline = waitNanos >= FOREVER - now ? FOREVER : now + waitNanos;
    }

    /** Starts the loop; the future completes with the lease, or null when the wait ran out. */
    CompletableFuture<RedisLease> start() {
        attempt(false);
        return result;
    }

    CompletableFuture<RedisLease> result() {
        return result;
    }

    /** Gives up; the returned future completes once no lock taken by this attempt is left. */
    CompletableFuture<Void> cancel() {
        cancelled = true;
        WaitRoom.Waiter w = waiter;
        if (w != null) {
            w.nudge();
        }
        SETTLED.compareAndSet(this, null, new CompletableFuture<Void>());
        CompletableFuture<Void> s = settled;
        if (finished) {
            s.complete(null);
        }
        return s;
    }

    private void attempt(boolean waiting) {
        if (cancelled) {
            finish(null, new CancellationException("acquire of '" + keys.name() + "' was cancelled"));
            return;
        }
        boolean othersWaiting = waiter != null && client.waitRoom().othersWaiting(keys.channel(), waiter);
        long sentAt = client.ticker().nanos();
        client.eval(Scripts.ACQUIRE, scriptKeys, new String[] {
                    owner, leaseArg, waiting ? "1" : "0", othersWaiting ? "1" : "0", FENCE_IDLE_ARG
                })
                .whenComplete((reply, error) -> {
                    if (error != null) {
                        finish(null, error);
                    } else {
                        onReply((List<?>) reply, sentAt);
                    }
                });
    }

    private void onReply(List<?> reply, long sentAt) {
        if (((Long) reply.get(0)) == 1L) {
            RedisLease lease = client.newLease(keys, owner, (Long) reply.get(1), leaseMillis, renewed, sentAt);
            if (cancelled) {
                lease.releaseQuietly();
                finish(null, new CancellationException("acquire of '" + keys.name() + "' was cancelled"));
            } else {
                finish(lease, null);
            }
            return;
        }
        long holderTtl = (Long) reply.get(1);
        long now = client.ticker().nanos();
        if (cancelled || (deadline != FOREVER && now - deadline >= 0)) {
            finish(
                    null,
                    cancelled ? new CancellationException("acquire of '" + keys.name() + "' was cancelled") : null);
            return;
        }
        if (waiter == null) {
            waiter = client.waitRoom().join(keys.channel());
            waiter.subscribed().whenComplete((ok, error) -> {
                if (error != null) {
                    finish(null, error);
                } else {
                    waiter.arm();
                    attempt(true);
                }
            });
            return;
        }
        // Sleep until woken, until the holder's lease may have run out, or until the deadline.
        long sleep = holderTtl > 0 ? TimeUnit.MILLISECONDS.toNanos(holderTtl) + 1_000_000L : 1_000_000L;
        if (deadline != FOREVER) {
            sleep = Math.min(sleep, deadline - now);
        }
        // The signal armed before this try: a release during the try has already completed it.
        CompletableFuture<Boolean> signal = waiter.signalForWait();
        timer = client.scheduler().schedule(() -> signal.complete(Boolean.FALSE), sleep, TimeUnit.NANOSECONDS);
        signal.whenComplete((ok, error) -> {
            timer.cancel(false);
            waiter.arm();
            attempt(true);
        });
    }

    private void finish(RedisLease lease, Throwable error) {
        if (waiter != null) {
            client.waitRoom().leave(waiter);
        }
        if (error != null) {
            RuntimeException failure = client.translate(error, keys.lock());
            if (failure instanceof LockConnectionException) {
                // The try may have reached Redis and taken the lock after all (a timeout says nothing
                // about the server): an owner-checked release, queued behind it, frees such a lock.
                client.releaseOwnerQuietly(keys, owner);
            }
            result.completeExceptionally(failure);
        } else if (!result.complete(lease) && lease != null) {
            lease.releaseQuietly(); // the caller cancelled the future itself
        }
        finished = true;
        CompletableFuture<Void> s = settled;
        if (s != null) {
            s.complete(null);
        }
    }
}
