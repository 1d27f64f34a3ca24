package dev.dlock.internal.wait;

import dev.dlock.internal.lease.Leases;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.util.LeaseTime;
import dev.dlock.internal.util.Owners;
import dev.dlock.internal.util.Ticker;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the {@link QueuedAcquisition}s of one client share: the script runner, the clock and timer, the wait
 * room, the leases they make, and the ids they write. Immutable and thread-safe.
 */
public final class AcquireContext {
    public final ScriptRunner scripts;
    public final Ticker ticker;
    public final ScheduledExecutorService scheduler;
    public final WaitRoom waitRoom;
    public final Leases leases;
    public final LeaseTime leaseTime;
    public final Owners owners;
    public final boolean checkValidity; // off only for the negative control Controls.expiredHandoff
    final boolean acceptStaleGrants; // on only for the negative control Controls.Control.STALE_GRANT

    public AcquireContext(
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
    List<AbortableWait> waiting() {
        return waitRoom.acquisitions();
    }
}
