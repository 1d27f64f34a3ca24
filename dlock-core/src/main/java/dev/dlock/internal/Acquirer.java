package dev.dlock.internal;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the {@link Acquisition}s of one client share: the script runner, the clock and timer, the wait
 * room, the leases they make, and the ids they write. Immutable and thread-safe.
 */
final class Acquirer {
    final ScriptRunner scripts;
    final Ticker ticker;
    final ScheduledExecutorService scheduler;
    final WaitRoom waitRoom;
    final Leases leases;
    final LeaseTime leaseTime;
    final Owners owners;
    final boolean checkValidity; // off only for the negative control Controls.expiredHandoff
    final boolean acceptStaleGrants; // on only for the negative control Controls.Control.STALE_GRANT

    Acquirer(
            ScriptRunner scripts,
            Ticker ticker,
            ScheduledExecutorService scheduler,
            WaitRoom waitRoom,
            Leases leases,
            LeaseTime leaseTime,
            Owners owners,
            boolean checkValidity,
            boolean acceptStaleGrants) {
        this.scripts = scripts;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.waitRoom = waitRoom;
        this.leases = leases;
        this.leaseTime = leaseTime;
        this.owners = owners;
        this.checkValidity = checkValidity;
        this.acceptStaleGrants = acceptStaleGrants;
    }

    /** The acquisitions waiting for a hand-off or wake-up. */
    List<Waiting> waiting() {
        return waitRoom.acquisitions();
    }
}
