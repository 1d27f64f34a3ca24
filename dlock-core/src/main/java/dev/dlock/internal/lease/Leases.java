package dev.dlock.internal.lease;

import dev.dlock.LockLostException;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The holds of one client in Redis: makes each lease (registered with the watchdog, and with an expiry
 * timer when it is not renewed), forgets it when it ends, and sends the owner-checked releases. A
 * lease made after the client closed is released at once. Thread-safe.
 */
public final class Leases {
    private final ScriptRunner scripts;
    private final Ticker ticker;
    private final ScheduledExecutorService scheduler;
    private final Callbacks callbacks;
    private final Watchdog watchdog;
    private final Lifecycle lifecycle;
    private final Events events;

    public Leases(
            ScriptRunner scripts,
            Ticker ticker,
            ScheduledExecutorService scheduler,
            Callbacks callbacks,
            Watchdog watchdog,
            Lifecycle lifecycle,
            Events events) {
        this.scripts = scripts;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.callbacks = callbacks;
        this.watchdog = watchdog;
        this.lifecycle = lifecycle;
        this.events = events;
    }

    /** The client's listeners, which acquires that make leases report to (RedisSemaphore). */
    public Events events() {
        return events;
    }

    /** A new hold, valid from the sending of the command that took it ({@code sentAt}). */
    public RedisLease open(
            LockKeys keys, String owner, long token, long leaseMillis, boolean renewed, long sentAt, LeaseKind kind) {
        RedisLease lease = new RedisLease(this, keys, owner, token, leaseMillis, renewed, sentAt, kind);
        watchdog.add(lease);
        events.started(keys.name());
        if (!renewed) {
            expireAtDeadline(lease, "its fixed lease time of " + leaseMillis + " ms ran out");
        }
        if (lifecycle.isClosed()) {
            lease.releaseQuietly(); // closed while the acquire was in flight
        }
        return lease;
    }

    /**
     * Ends a fixed lease at its deadline, unless it has moved later meanwhile ({@link
     * RedisLease#expireIn}, which schedules a check of its own for the later deadline).
     */
    void expireAtDeadline(RedisLease lease, String reason) {
        long delay = lease.deadline() - ticker.nanos();
        scheduler.schedule(() -> lease.expireIfDue(reason), Math.max(0, delay), TimeUnit.NANOSECONDS);
    }

    /** Sets the remaining time of a held key, owner-checked; true when Redis still had it for the owner. */
    CompletableFuture<Boolean> expireIn(RedisLease lease, long millis) {
        return watchdog.setTtl(lease, Long.toString(millis));
    }

    /** A relayed lease (NameRelay): watchdog-renewed, so it needs no expiry timer of its own. */
    public RedisLease relay(RedisLease from, long token) {
        RedisLease lease = from.relayTo(token);
        watchdog.add(lease);
        events.started(from.keys().name());
        if (lifecycle.isClosed()) {
            lease.releaseQuietly();
        }
        return lease;
    }

    /** The lease was released (or its client closed): the watchdog no longer renews it. */
    void released(RedisLease lease) {
        watchdog.remove(lease);
        events.released(lease.keys().name());
    }

    /**
     * The lease was lost, or (planned) its fixed lease time ran out: the watchdog no longer renews
     * it.
     */
    void lost(RedisLease lease, LockLostException loss, boolean planned) {
        watchdog.remove(lease);
        if (planned) {
            events.expired(lease.keys().name(), loss);
        } else {
            events.lost(lease.keys().name(), loss);
        }
    }

    /** The leases not yet released or lost. */
    public List<RedisLease> held() {
        List<RedisLease> held = new ArrayList<>();
        for (RedisLease lease : watchdog.leases()) {
            if (lease.isHeld()) {
                held.add(lease);
            }
        }
        return held;
    }

    CompletableFuture<Boolean> renewNow(RedisLease lease) {
        return watchdog.renewNow(lease);
    }

    /** Owner-checked release; also takes the owner out of the lock's queue if it waits there. */
    public CompletableFuture<Boolean> release(LockKeys keys, String owner) {
        return scripts.eval(Scripts.RELEASE, keys.scriptKeys(), new String[] {owner})
                .thenApply(reply -> ((Long) reply) >= 1L); // 2: released and handed over
    }

    /**
     * Sends an owner-checked release for an acquire whose outcome is unknown (it timed out or its
     * connection failed), without waiting: Redis runs it after that acquire, so a lock the acquire
     * took anyway is freed at once instead of blocking everyone until its lease runs out.
     */
    public void releaseUnknown(LockKeys keys, String owner) {
        if (lifecycle.isClosed()) {
            return;
        }
        release(keys, owner).whenComplete((ok, error) -> {
            if (error != null) {
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "dlock could not undo an acquire of {0} whose outcome is unknown ({1}); if it took the"
                                + " lock or queued, that ends when its lease or queue entry runs out",
                        keys.lock(),
                        error.toString());
            }
        });
    }

    ScriptRunner scripts() {
        return scripts;
    }

    Ticker ticker() {
        return ticker;
    }

    Callbacks callbacks() {
        return callbacks;
    }
}
