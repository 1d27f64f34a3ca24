package dev.dlock.internal.permit;

import dev.dlock.Lease;
import dev.dlock.LockInfo;
import dev.dlock.LockLostException;
import dev.dlock.internal.lease.LeaseKind;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.SemaphoreKeys;
import dev.dlock.internal.script.Snapshots;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.ThreadLocking;
import dev.dlock.internal.wait.AcquireContext;
import dev.dlock.spi.Replicated;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The read or the write view of a read-write lock (docs/lock-family.md), on the shared-lock model: a
 * read hold weighs 1 and a write hold the whole capacity of the name's record ({@code rw-acquire.lua}).
 * Each acquire is a {@link PermitAcquisition} with an owner id of its own (no line in this JVM, as for
 * the semaphore), so a thread's read and write holds are two holders in Redis, which is what lets a
 * writer take a read hold beside its own (the downgrade: {@code rw-acquire.lua} admits it at once).
 * Thread-owned holds are counted in the client's {@link ThreadHolds} under this view's role, so re-entry
 * touches no Redis; a thread holding the read lock is refused the write lock (no upgrade). It is also the
 * {@link LeaseKind} of its leases: released by {@code rw-release.lua}, renewed by {@code
 * semaphore-renew.lua} (the holders' hash is the same shape). Immutable and thread-safe.
 */
final class ReadWriteView extends ThreadLocking implements PermitKind {
    /** The first word of a read-write lock's record, its {@code LockInfo.kind()}. */
    static final String RECORD_KIND = "rw";

    private static final String READ_ROLE = "rw-read";
    private static final String WRITE_ROLE = "rw-write";

    private final SemaphoreKeys keys;
    private final boolean write;
    private final AcquireContext acquirer;
    private final ThreadHolds holds;
    private final long leaseMillis;
    private final Callbacks callbacks;
    private final Lifecycle lifecycle;

    ReadWriteView(
            SemaphoreKeys keys,
            boolean write,
            AcquireContext acquirer,
            ThreadHolds holds,
            long leaseMillis,
            Callbacks callbacks,
            Lifecycle lifecycle) {
        super(holds, write ? WRITE_ROLE : READ_ROLE, keys.name());
        this.keys = keys;
        this.write = write;
        this.acquirer = acquirer;
        this.holds = holds;
        this.leaseMillis = leaseMillis;
        this.callbacks = callbacks;
        this.lifecycle = lifecycle;
    }

    @Override
    public String name() {
        return keys.name();
    }

    boolean isWrite() {
        return write;
    }

    AcquireContext acquirer() {
        return acquirer;
    }

    // ---- thread-owned ----------------------------------------------------------------------

    /** A re-entry renews the hold if the watchdog fell behind ({@link RedisLease#confirmForReentry}). */
    @Override
    protected RedisLease takeForThread(long waitNanos, boolean interruptible) throws InterruptedException {
        refuseUpgrade();
        lifecycle.checkOpen();
        ThreadHolds.Hold writing = write ? null : holds.ofCurrentThread(WRITE_ROLE, name());
        if (writing != null) {
            // the downgrade: never waits, the write hold keeps everyone out; the write role holds RedisLeases
            return beside((RedisLease) writing.lease);
        }
        return PermitWaits.await(
                acquirer, wait -> start(leaseMillis, true, wait, "-"), waitNanos, keys.record(), interruptible);
    }

    /** A write acquire by a thread that holds the read lock through {@code lock()} would wait for itself. */
    private void refuseUpgrade() {
        if (write && holds.ofCurrentThread(READ_ROLE, name()) != null) {
            throw new IllegalStateException("the current thread holds the read lock of '" + name() + "': a read"
                    + " lock cannot be upgraded to the write lock (it would wait for itself, and two upgrading"
                    + " readers for each other); unlock the read lock first");
        }
    }

    /**
     * Takes a read hold beside a write hold of the same name ({@code rw-acquire.lua}'s ARGV[7]): at
     * once, whatever the queue, since that write hold keeps every other holder out.
     *
     * @throws LockLostException if the write hold is lost (nothing is taken)
     */
    RedisLease beside(RedisLease writeLease) {
        writeLease.confirmForReentry(); // throws its loss, or proves it valid for half a lease
        try {
            RedisLease lease = PermitWaits.await(
                    acquirer, wait -> start(leaseMillis, true, wait, writeLease.owner()), 0, keys.record(), false);
            if (lease == null) {
                throw new IllegalStateException("dlock: a read hold beside a write hold was refused as busy");
            }
            return lease;
        } catch (LockLostException e) {
            throw new LockLostException(
                    name(),
                    writeLease.fencingToken(),
                    "the write hold to take the read lock beside ran out or was released before the read hold"
                            + " was taken; nothing was taken");
        } catch (InterruptedException e) {
            throw new AssertionError("uninterruptible wait was interrupted", e);
        }
    }

    // ---- lease-owned -----------------------------------------------------------------------

    @Override
    protected Lease awaitLease(long waitNanos, long leaseMillis, boolean renewed) throws InterruptedException {
        refuseUpgrade();
        lifecycle.checkOpen();
        return PermitWaits.await(
                acquirer, wait -> start(leaseMillis, renewed, wait, "-"), waitNanos, keys.record(), true);
    }

    @Override
    protected long clientLeaseMillis() {
        return leaseMillis;
    }

    @Override
    protected String waitedFor() {
        return "the " + describe();
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        refuseUpgrade();
        lifecycle.checkOpen();
        return PermitWaits.async(acquirer, callbacks, start(leaseMillis, true, w.toNanos(), "-"), keys.record());
    }

    private PermitAcquisition start(long leaseMillis, boolean renewed, long waitNanos, String beside) {
        return PermitWaits.start(
                acquirer, this, acquirer.owners.newLease(), write ? "w" : "r", beside, leaseMillis, renewed, waitNanos);
    }

    // ---- inspection ------------------------------------------------------------------------

    @Override
    public boolean isLocked() {
        return info().isLocked();
    }

    /**
     * This view's holder as Redis has it: the writer, or the latest reader (the highest token); when
     * there is none, the last token issued for the name. Kind {@code rw}; {@code holders} lists every
     * holder of the name by token, readers with weight 1 and a writer with the whole capacity; the
     * queue lists readers and writers alike.
     */
    @Override
    public LockInfo info() {
        lifecycle.checkOpen();
        String[] args = {RECORD_KIND, "", Snapshots.QUEUE_SHOWN};
        List<?> reply = (List<?>) acquirer.scripts.await(
                acquirer.scripts.eval(Scripts.SHARED_INFO, keys.scriptKeys(), args), keys.record());
        Snapshots.ViewFilter view = write
                ? (weight, capacity) -> capacity > 0 && weight >= capacity
                : (weight, capacity) -> capacity == 0 || weight < capacity;
        return Snapshots.shared(name(), RECORD_KIND, reply, view);
    }

    // ---- PermitKind and LeaseKind: how its holds are taken, end and are renewed ----------------

    @Override
    public SemaphoreKeys keys() {
        return keys;
    }

    @Override
    public CompletableFuture<Replicated> send(String[] args) {
        return acquirer.scripts.evalGranting(Scripts.RW_ACQUIRE, keys.scriptKeys(), args);
    }

    @Override
    public CompletableFuture<Boolean> release(String owner) {
        return acquirer.scripts
                .eval(Scripts.RW_RELEASE, keys.scriptKeys(), new String[] {owner})
                .thenApply(reply -> ((Long) reply) >= 1L);
    }

    @Override
    public Lifecycle lifecycle() {
        return lifecycle;
    }

    @Override
    public String describe() {
        return (write ? "write" : "read") + " lock of '" + name() + "'";
    }

    @Override
    public String toString() {
        return "DistributedLock[" + name() + ", " + (write ? "write" : "read") + "]";
    }
}
