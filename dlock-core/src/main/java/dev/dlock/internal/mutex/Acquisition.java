package dev.dlock.internal.mutex;

import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.wait.AcquireContext;
import dev.dlock.internal.wait.QueuedAcquisition;
import dev.dlock.spi.Replicated;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One acquire of a mutex, run as the {@link QueuedAcquisition} loop over {@code acquire.lua} (docs/waiting.md).
 * It acts for a {@link PendingAcquire} of the name's {@link NameRelay}, the JVM-side line of this client's acquires
 * of the name, and hands its outcome to the gate ({@code gate.actorDone}), which relays the lock to
 * the next thread of this client or releases it.
 */
public final class Acquisition extends QueuedAcquisition {
    private static final VarHandle SETTLED;

    static {
        try {
            SETTLED = MethodHandles.lookup().findVarHandle(Acquisition.class, "settled", CompletableFuture.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LockKeys keys;
    private final String[] scriptKeys;
    private final NameRelay gate;
    private final PendingAcquire turn; // told the outcome through gate.actorDone
    // Created only by cancel(); settle() and cancel() each write their side, then read the other's.
    private volatile CompletableFuture<Void> settled;
    private volatile boolean finished;

    Acquisition(AcquireContext shared, LockKeys keys, PendingAcquire turn, long waitNanos, NameRelay gate) {
        super(shared, turn.owner, turn.leaseMillis, turn.renewed, waitNanos);
        this.keys = keys;
        this.scriptKeys = keys.scriptKeys();
        this.gate = gate;
        this.turn = turn;
    }

    /** Gives up; the returned future completes once no lock taken by this attempt is left. */
    CompletableFuture<Void> cancel() {
        markCancelled();
        SETTLED.compareAndSet(this, null, new CompletableFuture<Void>());
        CompletableFuture<Void> s = settled;
        if (finished) {
            s.complete(null);
        }
        return s;
    }

    @Override
    protected CompletableFuture<Replicated> send(String mode, String waitId) {
        String[] args = mode.equals(QUEUE)
                ? new String[] {owner, leaseArg, mode, entryArg, waitId}
                : new String[] {owner, leaseArg, mode, entryArg};
        return shared.scripts.evalGranting(Scripts.ACQUIRE, scriptKeys, args);
    }

    @Override
    protected String key() {
        return keys.lock();
    }

    @Override
    protected String channelBase() {
        return keys.channel();
    }

    @Override
    protected String describe() {
        return "'" + keys.name() + "'";
    }

    @Override
    protected String waitingFor() {
        return "lock '" + keys.name() + "'";
    }

    @Override
    protected boolean refusedForGood(long reply) {
        return false; // 0 is busy with no holder: -2 - PTTL of a missing key (acquire.lua)
    }

    @Override
    protected RuntimeException refusal() {
        return new IllegalStateException("acquire.lua never refuses for good"); // not reached
    }

    /** {@code reply}: {@code -2 - holder's PTTL} (acquire.lua): until it may have run out, at least 1 ms. */
    @Override
    protected long busySleepNanos(long reply) {
        long holderTtl = -2 - reply;
        return holderTtl > 0 ? TimeUnit.MILLISECONDS.toNanos(holderTtl) + 1_000_000L : 1_000_000L;
    }

    @Override
    protected RedisLease open(long token, long sentAt) {
        return shared.leases.open(keys, owner, token, leaseMillis, renewed, sentAt, gate);
    }

    @Override
    protected Throwable refuseTaken() {
        return cancelled ? cancellation() : null;
    }

    @Override
    protected CompletableFuture<Boolean> releaseOwn() {
        return shared.leases.release(keys, owner);
    }

    @Override
    protected void undoUnknown() {
        shared.leases.releaseUnknown(keys, owner);
    }

    @Override
    protected void settle(RedisLease lease, RuntimeException failure) {
        gate.actorDone(turn, lease, failure); // a turn that no longer wants the lease releases it
        finished = true;
        CompletableFuture<Void> s = settled;
        if (s != null) {
            s.complete(null);
        }
    }
}
