package dev.dlock.internal.mutex;

import dev.dlock.Lease;
import dev.dlock.LockInfo;
import dev.dlock.internal.lease.RedisLease;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.script.ScriptRunner;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.script.Snapshots;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.Owners;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.ThreadLocking;
import dev.dlock.internal.util.ValidHoldWait;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A view of one lock name. Thread-owned holds live in the client's {@link ThreadHolds} ((mutex role,
 * name, thread) → the thread's hold through {@code lock()}, counted by {@link ThreadLocking}), so two
 * views of one name agree and nothing stays behind after the last unlock. Every acquire lines up at the name's {@link NameRelay}.
 */
public final class RedisDistributedLock extends ThreadLocking {

    private final LockKeys keys;
    private final NameRelays gates;
    private final Owners owners;
    private final long leaseMillis;
    private final ScriptRunner scripts;
    private final Callbacks callbacks;
    private final Lifecycle lifecycle;
    // What an interrupted wait and a failed acquire do, made once per view: an acquire makes no lambda.
    private final Consumer<PendingAcquire> giveUp = this::settleCancelled;
    private final Function<Throwable, RuntimeException> failure;

    public RedisDistributedLock(
            LockKeys keys,
            NameRelays gates,
            ThreadHolds holds,
            Owners owners,
            long leaseMillis,
            ScriptRunner scripts,
            Callbacks callbacks,
            Lifecycle lifecycle) {
        super(holds, ThreadHolds.MUTEX, keys.name());
        this.keys = keys;
        this.gates = gates;
        this.owners = owners;
        this.leaseMillis = leaseMillis;
        this.scripts = scripts;
        this.callbacks = callbacks;
        this.lifecycle = lifecycle;
        this.failure = error -> scripts.translate(error, keys.lock());
    }

    @Override
    public String name() {
        return keys.name();
    }

    // ---- thread-owned ----------------------------------------------------------------------

    /** A re-entry renews the hold if the watchdog fell behind ({@link RedisLease#confirmForReentry}). */
    @Override
    protected RedisLease takeForThread(long waitNanos, boolean interruptible) throws InterruptedException {
        return await(owners.thread(), leaseMillis, true, waitNanos, interruptible);
    }

    // ---- lease-owned -----------------------------------------------------------------------

    @Override
    protected Lease awaitLease(long waitNanos, long leaseMillis, boolean renewed) throws InterruptedException {
        return await(owners.newLease(), leaseMillis, renewed, waitNanos, true);
    }

    @Override
    protected long clientLeaseMillis() {
        return leaseMillis;
    }

    @Override
    protected String waitedFor() {
        return "lock '" + keys.name() + "'";
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        lifecycle.checkOpen();
        PendingAcquire turn = gates.enter(keys, owners.newLease(), leaseMillis, true, w.toNanos());
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
                callbacks.executor());
        future.whenComplete((lease, error) -> {
            if (error instanceof CancellationException) {
                turn.giveUp();
            }
        });
        return future;
    }

    /**
     * Runs an acquire and waits for it, until it returns a hold valid for half its lease as this thread
     * sees it ({@link ValidHoldWait}). An interrupt cancels it and waits until any lock it took
     * concurrently has been released, so an interrupted acquire leaves nothing behind.
     */
    private RedisLease await(String owner, long leaseMillis, boolean renewed, long waitNanos, boolean interruptible)
            throws InterruptedException {
        return ValidHoldWait.await(
                gates.ticker,
                !gates.expiredHandoff,
                waitNanos,
                wait -> awaitTurn(owner, leaseMillis, renewed, wait, interruptible));
    }

    private RedisLease awaitTurn(String owner, long leaseMillis, boolean renewed, long waitNanos, boolean interruptible)
            throws InterruptedException {
        lifecycle.checkOpen();
        PendingAcquire turn = gates.enter(keys, owner, leaseMillis, renewed, waitNanos);
        return scripts.waits().acquire(turn, interruptible, giveUp, failure);
    }

    private void settleCancelled(PendingAcquire turn) {
        // If the acquire's command never answers, a lock it might have taken expires with its lease.
        scripts.waits().replyOrNull(turn.giveUp(), scripts.commandTimeout().toMillis() + 1000);
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
        lifecycle.checkOpen();
        List<?> reply = (List<?>) scripts.await(
                scripts.eval(Scripts.INFO, keys.scriptKeys(), new String[] {Snapshots.QUEUE_SHOWN}), keys.lock());
        return Snapshots.mutex(keys.name(), reply);
    }

    @Override
    public String toString() {
        return "DistributedLock[" + keys.name() + "]";
    }
}
