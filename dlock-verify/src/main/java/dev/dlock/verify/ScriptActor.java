package dev.dlock.verify;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockLostException;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One client of a scripted scenario ({@link Script}): takes, uses and releases holds when the script says so, and
 * records every call as a {@link Worker} does (acquire, fenced read and write, release, the lease's loss), so the same
 * checkers judge it. A multi-lock hold is recorded as one acquire per name (each name's token, the lease's one
 * deadline), so checker 1 sees its part of each name beside the other holders of that name. Calls run on the caller's
 * thread, or on the actor's own thread through {@link #async} (a thread hold is taken, used and released there); the
 * script gives one actor one call at a time.
 */
final class ScriptActor implements AutoCloseable {

    /**
     * A hold as the actor got it.
     *
     * @param names the lock names it holds (several for a multi-lock)
     * @param lease the lease, or {@code null} for a thread hold
     * @param lock the lock of a thread hold, or {@code null}
     * @param acquires the acquire operations recorded, one per name
     * @param shared a read hold (it only reads)
     */
    record Hold(List<String> names, Lease lease, DistributedLock lock, List<Op> acquires, boolean shared) {
        long token(String name) {
            Map<String, Long> tokens = lease != null ? lease.fencingTokens() : lock.fencingTokens();
            return tokens.getOrDefault(name, 0L);
        }

        /** The deadline as observed now, {@code nanoTime() + remaining}, or 0 when no longer held. */
        long observe() {
            if (lock != null) {
                return lock.isHeldByCurrentThread()
                        ? System.nanoTime() + lock.remaining().toNanos()
                        : 0;
            }
            return System.nanoTime() + lease.remaining().toNanos();
        }
    }

    private final String label;
    private final long clientLeaseNanos;
    private final OpLog log;
    private final RunSettings run;
    private final Function<String, FencedResource> resources;
    private final RedisCommands<String, String> redis;
    private final ExecutorService thread;

    /**
     * @param clientLeaseNanos the lease time of the actor's client (its watchdog leases and thread holds)
     * @param redis a connection to the server of the fenced resources
     */
    ScriptActor(
            String label,
            long clientLeaseNanos,
            History history,
            String scenario,
            RunSettings run,
            Function<String, FencedResource> resources,
            RedisCommands<String, String> redis) {
        this.label = label;
        this.clientLeaseNanos = clientLeaseNanos;
        this.log = new OpLog(history, scenario, label);
        this.run = run;
        this.resources = resources;
        this.redis = redis;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dlock-verify-script-" + label);
            t.setDaemon(true);
            return t;
        });
    }

    String label() {
        return label;
    }

    /** Runs {@code call} on the actor's own thread. */
    <T> CompletableFuture<T> async(Callable<T> call) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return call.call();
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                thread);
    }

    /** {@code tryAcquire(wait)} on one name (watchdog lease), or on a multi-lock of {@code names}. */
    Hold tryAcquire(List<String> names, DistributedLock lock, Duration wait) {
        return lease(names, clientLeaseNanos, "", wait, "tryAcquire(wait)", () -> lock.tryAcquire(wait));
    }

    /** {@code tryAcquire(wait, leaseTime)}: a fixed lease; {@code kind} is {@link Op#KIND_READ} for a read hold. */
    Hold tryAcquire(String name, DistributedLock lock, Duration wait, Duration leaseTime, String kind) {
        return lease(
                List.of(name),
                leaseTime.toNanos(),
                kind,
                wait,
                "tryAcquire(wait, " + leaseTime + ")",
                () -> lock.tryAcquire(wait, leaseTime));
    }

    /** Any other call that returns a lease with the client's lease time (a permit, a read hold, acquireAsync). */
    Hold lease(List<String> names, String kind, Duration wait, String call, Supplier<Optional<Lease>> acquire) {
        return lease(names, clientLeaseNanos, kind, wait, call, acquire);
    }

    private synchronized Hold lease(
            List<String> names,
            long leaseNanos,
            String kind,
            Duration wait,
            String call,
            Supplier<Optional<Lease>> acquire) {
        long timeout = wait.plus(run.commandTimeout()).toNanos();
        List<Op> begun = new ArrayList<>();
        for (String name : names) {
            begun.add(log.beginAcquire(name, timeout, leaseNanos, kind));
        }
        Optional<Lease> got;
        try {
            got = acquire.get();
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            begun.forEach(op -> log.end(op, now, Op.UNKNOWN, 0, 0, describe(e) + " (" + call + ")"));
            return null;
        }
        long returned = System.nanoTime();
        if (got.isEmpty()) {
            begun.forEach(op -> log.end(op, returned, Op.FAIL, 0, 0, "busy"));
            return null;
        }
        Lease lease = got.get();
        long deadline = returned + lease.remaining().toNanos();
        List<Op> acquires = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            long token = lease.fencingTokens().getOrDefault(name, 0L);
            Op op = begun.get(i);
            log.end(op, returned, Op.OK, token, deadline, "");
            acquires.add(op.completed(returned, Op.OK, token, deadline, ""));
            recordLoss(lease, op.seq(), name, token);
        }
        return new Hold(List.copyOf(names), lease, null, acquires, Op.KIND_READ.equals(kind));
    }

    /** {@code lock()}: a thread hold of one name or of a multi-lock; run it on the actor's thread ({@link #async}). */
    synchronized Hold lock(List<String> names, DistributedLock lock) {
        List<Op> begun = new ArrayList<>();
        for (String name : names) {
            begun.add(log.beginAcquire(name, 0, clientLeaseNanos, ""));
        }
        try {
            lock.lock();
        } catch (RuntimeException e) {
            long now = System.nanoTime();
            begun.forEach(op -> log.end(op, now, Op.UNKNOWN, 0, 0, describe(e) + " (lock())"));
            return null;
        }
        long returned = System.nanoTime();
        boolean heldNow = lock.isHeldByCurrentThread();
        long deadline = returned + lock.remaining().toNanos();
        Map<String, Long> tokens = lock.fencingTokens();
        List<Op> acquires = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            long token = tokens.getOrDefault(names.get(i), 0L);
            String detail = heldNow ? "" : FreshHoldChecker.NOT_HELD;
            log.end(begun.get(i), returned, Op.OK, token, deadline, detail);
            acquires.add(begun.get(i).completed(returned, Op.OK, token, deadline, detail));
        }
        return new Hold(List.copyOf(names), null, lock, acquires, false);
    }

    /**
     * Uses the hold as the honest worker does: for each name a fenced read and, but for a read hold, a fenced write,
     * each only while the hold is valid and before its deadline as observed just before.
     */
    synchronized void use(Hold hold) {
        if (hold == null) {
            return;
        }
        for (String name : hold.names()) {
            long token = hold.token(name);
            FencedResource resource = resources.apply(name);
            long deadline = hold.observe();
            if (System.nanoTime() >= deadline) {
                return;
            }
            String element = label + "-" + log.seq() + "r";
            Op read = log.begin(Op.READ, name, element, run.commandTimeout().toNanos(), token, deadline);
            String value;
            try {
                value = resource.read(redis, token, element, hold.shared());
                log.end(
                        read,
                        System.nanoTime(),
                        value != null ? Op.OK : Op.FAIL,
                        token,
                        deadline,
                        value != null ? "" : FenceChecker.REJECTED);
            } catch (RuntimeException e) {
                log.end(read, System.nanoTime(), Op.UNKNOWN, token, deadline, describe(e));
                return;
            }
            if (value == null || hold.shared()) {
                continue;
            }
            deadline = hold.observe();
            if (System.nanoTime() >= deadline) {
                return;
            }
            element = label + "-" + log.seq() + "w";
            Op write = log.begin(Op.WRITE, name, element, run.commandTimeout().toNanos(), token, deadline);
            try {
                boolean stored = resource.write(redis, token, element, value + element + ",");
                log.end(
                        write,
                        System.nanoTime(),
                        stored ? Op.OK : Op.FAIL,
                        token,
                        deadline,
                        stored ? "" : FenceChecker.REJECTED);
            } catch (RuntimeException e) {
                log.end(write, System.nanoTime(), Op.UNKNOWN, token, deadline, describe(e));
            }
        }
    }

    /** Releases the hold (a thread hold on the thread that took it), one release recorded per name. */
    synchronized void release(Hold hold) {
        if (hold == null) {
            return;
        }
        List<Op> begun = new ArrayList<>();
        for (String name : hold.names()) {
            begun.add(log.begin(Op.RELEASE, name, "", run.commandTimeout().toNanos(), hold.token(name), 0));
        }
        String outcome = Op.OK;
        String detail = "";
        try {
            if (hold.lease() != null) {
                hold.lease().release();
            } else {
                hold.lock().unlock();
            }
        } catch (LockLostException e) {
            outcome = Op.FAIL;
            detail = "lost: " + e.getMessage();
        } catch (RuntimeException e) {
            outcome = Op.UNKNOWN;
            detail = describe(e);
        }
        long now = System.nanoTime();
        for (Op op : begun) {
            log.end(op, now, outcome, op.token(), 0, detail);
        }
    }

    /**
     * Reads the remaining time to live of {@code key} (PTTL) and records it as an {@link Op#EXPIRY} operation of
     * {@code name}: its deadline is the earliest the key can expire, {@code invoke + PTTL} (0 when the key is gone,
     * {@link Long#MAX_VALUE} when it has no expiry).
     */
    synchronized void probeExpiry(String name, String key, RedisCommands<String, String> lockServer) {
        Op op = log.begin(Op.EXPIRY, name, "", run.commandTimeout().toNanos(), 0, 0);
        long pttl;
        try {
            pttl = lockServer.pttl(key);
        } catch (RuntimeException e) {
            log.end(op, System.nanoTime(), Op.UNKNOWN, 0, 0, describe(e));
            return;
        }
        long expiresFrom = pttl == -1 ? Long.MAX_VALUE : pttl < 0 ? op.invoke() : op.invoke() + pttl * 1_000_000L;
        log.end(op, System.nanoTime(), Op.OK, 0, expiresFrom, "PTTL " + pttl);
    }

    private void recordLoss(Lease lease, long seq, String name, long token) {
        lease.onLost(loss -> log.lost(seq, name, token, loss.getMessage()));
    }

    private static String describe(RuntimeException e) {
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        return message.length() > 200 ? message.substring(0, 200) : message;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
