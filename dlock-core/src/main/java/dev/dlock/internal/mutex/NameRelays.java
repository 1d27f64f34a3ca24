package dev.dlock.internal.mutex;

import dev.dlock.internal.lease.Leases;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.LeaseTime;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.Ticker;
import dev.dlock.internal.wait.AcquireContext;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The {@link NameRelay}s of one client, one per lock name in use, and what they share: the clock and
 * timer, the script runner, the leases and the acquisitions they start. A gate found idle in two
 * watchdog rounds in a row leaves the map, so nothing stays per lock name for long. Thread-safe.
 */
public final class NameRelays {
    final Ticker ticker;
    final ScheduledExecutorService scheduler;
    final ScriptRunner scripts;
    final Leases leases;
    final AcquireContext acquirer;
    final LeaseTime leaseTime;
    final Lifecycle lifecycle;
    final boolean expiredHandoff; // the negative control Controls.expiredHandoff
    private final Events events;
    private final ConcurrentHashMap<String, NameRelay> byName = new ConcurrentHashMap<>();

    public NameRelays(AcquireContext acquirer, Lifecycle lifecycle, boolean expiredHandoff, Events events) {
        this.ticker = acquirer.ticker;
        this.scheduler = acquirer.scheduler;
        this.scripts = acquirer.scripts;
        this.leases = acquirer.leases;
        this.acquirer = acquirer;
        this.leaseTime = acquirer.leaseTime;
        this.lifecycle = lifecycle;
        this.expiredHandoff = expiredHandoff;
        this.events = events;
    }

    /**
     * Lines an acquire up at its lock's gate in this client (acting in Redis at once when nobody of
     * this client is at the lock).
     */
    PendingAcquire enter(LockKeys keys, String owner, long leaseMillis, boolean renewed, long waitNanos) {
        long now = ticker.nanos();
        PendingAcquire turn = new PendingAcquire(owner, leaseMillis, renewed, waitNanos, now);
        if (events.enabled()) {
            turn.whenComplete(
                    (lease, error) -> events.acquire(keys.name(), Events.outcome(lease, error), ticker.nanos() - now));
        }
        while (true) {
            NameRelay gate = byName.get(keys.name()); // lock-free and allocation-free when the name is in use
            if (gate == null) {
                NameRelay fresh = new NameRelay(this, keys);
                gate = byName.putIfAbsent(keys.name(), fresh);
                if (gate == null) {
                    gate = fresh;
                }
            }
            if (gate.admit(turn)) {
                return turn;
            }
            byName.remove(keys.name(), gate); // dead: it is leaving the map; the next loop makes a new one
        }
    }

    void remove(String name, NameRelay gate) {
        byName.remove(name, gate);
    }

    /** Once per watchdog round: idle gates leave. */
    public void sweep() {
        for (NameRelay gate : byName.values()) {
            gate.sweep();
        }
    }

    /** Fails every turn waiting in line: the client is closing. */
    public void close() {
        for (NameRelay gate : byName.values()) {
            gate.close();
        }
    }

    /** How many lock names have a gate (tests: idle gates go). */
    public int count() {
        return byName.size();
    }
}
