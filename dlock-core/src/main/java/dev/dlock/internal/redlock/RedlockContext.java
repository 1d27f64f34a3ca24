package dev.dlock.internal.redlock;

import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Events;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.LockRuntime;
import dev.dlock.internal.util.Owners;
import dev.dlock.internal.util.Ticker;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the parts of one Redlock client share: its nodes, clock, timer, callback executor, listeners,
 * lifecycle, the leases it holds now (renewed by its watchdog, released by its close) and the waits
 * under way (ended by its close). Immutable; the two collections are concurrent and ordered (leases by owner
 * id, waits as they began).
 *
 * @param nodes the masters
 * @param ticker the monotonic clock
 * @param timer the client's one timer thread: watchdog rounds, retries, lease expiry
 * @param runtime where the clock, the timer and random choices come from
 * @param callbacks runs application code
 * @param events the lock event listeners
 * @param lifecycle open or closed
 * @param owners the client id and owner ids
 * @param held the leases held now
 * @param waits the acquires under way
 * @param leaseMillis the lease time of watchdog-renewed leases
 */
record RedlockContext(
        RedlockNodes nodes,
        Ticker ticker,
        ScheduledExecutorService timer,
        LockRuntime runtime,
        Callbacks callbacks,
        Events events,
        Lifecycle lifecycle,
        Owners owners,
        Set<RedlockLease> held,
        Collection<CompletableFuture<?>> waits,
        long leaseMillis) {

    /** How many nodes make a quorum. */
    int quorum() {
        return nodes.quorum();
    }

    /** How many nodes there are. */
    int size() {
        return nodes.size();
    }
}
