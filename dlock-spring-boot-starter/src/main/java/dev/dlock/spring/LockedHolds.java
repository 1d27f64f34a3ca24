package dev.dlock.spring;

import dev.dlock.Lease;
import dev.dlock.LockLostException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The leases taken through {@link Locked} that this application holds now, for the {@code dlock}
 * endpoint, and their release: at once when the method returns, or when {@code holdAtLeast} has
 * passed since the lock was taken. A fixed lease ({@code leaseTime} given) is kept that long in Redis
 * itself: its remaining time is set to what is left of {@code holdAtLeast} ({@link Lease#expireIn}),
 * so the key expires then even if this process dies; a renewed lease is released then by one daemon
 * timer thread, made on first need. When the application stops, holds kept for {@code holdAtLeast}
 * are released at once (closing the client would release them anyway). Thread-safe.
 */
final class LockedHolds implements SmartLifecycle {
    private static final Log log = LogFactory.getLog(LockedHolds.class);

    private final Set<Hold> holds = ConcurrentHashMap.newKeySet();
    private ScheduledThreadPoolExecutor timer; // guarded by this
    private boolean stopped; // guarded by this

    /** Records a lease just taken for {@code method}. */
    Hold open(String name, Lease lease, LockedMethod method) {
        Hold hold = new Hold(name, lease, method.description(), System.nanoTime(), Instant.now());
        holds.add(hold);
        return hold;
    }

    /**
     * Ends a hold after its method returned or threw: reports a lease lost meanwhile, and releases
     * the lease now or once {@code holdAtLeast} has passed since it was taken.
     */
    void finish(Hold hold, LockedMethod method) {
        if (!hold.lease.isValid()) {
            log.warn(method.description() + ": lock '" + hold.name + "' (fencing token " + hold.lease.fencingToken()
                    + ") was lost while the method ran, so it may have run beside another holder; a resource that"
                    + " checks fencing tokens rejects this one's writes");
            release(hold, true);
            return;
        }
        long remaining = method.holdAtLeast().toNanos() - (System.nanoTime() - hold.acquiredNanos);
        if (remaining <= 0 || isStopped()) {
            release(hold, false);
        } else if (method.leaseTime() == null || !expireLater(hold, remaining)) {
            if (!releaseLater(hold, remaining)) {
                release(hold, false);
            }
        }
    }

    /**
     * Leaves a fixed lease to end in Redis when {@code holdAtLeast} has passed: sets its remaining time
     * to {@code nanos} (rounded up to whole milliseconds). The hold leaves the endpoint's list when the
     * lease ends. Returns false, for the timer to release it instead, only if Redis could not be told.
     */
    private boolean expireLater(Hold hold, long nanos) {
        hold.holdUntil = Instant.now().plusNanos(nanos);
        try {
            if (!hold.lease.expireIn(Duration.ofMillis((nanos + 999_999) / 1_000_000))) {
                log.warn("lock '" + hold.name + "' of " + hold.method + " was lost before its holdAtLeast began");
                holds.remove(hold);
                return true;
            }
        } catch (RuntimeException e) {
            log.warn("could not shorten lock '" + hold.name + "' of " + hold.method + " to its holdAtLeast; it is"
                    + " released by this application's timer instead: " + e);
            return false;
        }
        hold.lease.onLost(lost -> holds.remove(hold)); // its time ran out: the end holdAtLeast asked for
        return true;
    }

    private synchronized boolean isStopped() {
        return stopped;
    }

    /** The holds now, oldest first. */
    List<Hold> snapshot() {
        return holds.stream()
                .sorted(Comparator.comparingLong((Hold h) -> h.acquiredNanos))
                .toList();
    }

    private synchronized boolean releaseLater(Hold hold, long nanos) {
        if (stopped) {
            return false;
        }
        if (timer == null) {
            timer = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, "dlock-hold-at-least");
                thread.setDaemon(true);
                return thread;
            });
            timer.setRemoveOnCancelPolicy(true);
        }
        hold.holdUntil = Instant.now().plusNanos(nanos);
        timer.schedule(() -> release(hold, false), nanos, TimeUnit.NANOSECONDS);
        return true;
    }

    private void release(Hold hold, boolean lostAlready) {
        try {
            hold.lease.release();
        } catch (LockLostException e) {
            if (!lostAlready) {
                log.warn("lock '" + hold.name + "' of " + hold.method + " was lost before its release: "
                        + e.getMessage());
            }
        } catch (RuntimeException e) {
            log.warn("could not release lock '" + hold.name + "' of " + hold.method
                    + "; it frees when its lease runs out: " + e);
        } finally {
            holds.remove(hold);
        }
    }

    @Override
    public synchronized void start() {
        stopped = false;
    }

    /**
     * Releases at once the holds kept for {@code holdAtLeast}, on the timer or in Redis, and stops the
     * timer.
     */
    @Override
    public void stop() {
        ScheduledThreadPoolExecutor ending;
        synchronized (this) {
            stopped = true;
            ending = timer;
            timer = null;
        }
        if (ending != null) {
            ending.shutdownNow();
        }
        for (Hold hold : holds) {
            if (hold.holdUntil != null && hold.lease.isValid()) {
                log.info("lock '" + hold.name + "' of " + hold.method + " released before its holdAtLeast ("
                        + hold.holdUntil + "): the application is stopping");
                release(hold, false);
            }
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return !stopped;
    }

    /** One lease taken through {@code @Locked}. */
    static final class Hold {
        final String name;
        final Lease lease;
        final String method;
        final long acquiredNanos;
        final Instant acquiredAt;
        volatile Instant holdUntil; // set when the release waits for holdAtLeast

        Hold(String name, Lease lease, String method, long acquiredNanos, Instant acquiredAt) {
            this.name = name;
            this.lease = lease;
            this.method = method;
            this.acquiredNanos = acquiredNanos;
            this.acquiredAt = acquiredAt;
        }
    }
}
