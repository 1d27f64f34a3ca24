package dev.dlock.verify;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One client of the workload: loops acquire, fenced read, hold, fenced write, release, recording every call. The
 * honest variant uses dlock and never touches the resource at or past its lease's validity deadline; the broken
 * variants of the negative controls misbehave in one way each. Runs on one thread.
 *
 * <p>Deadlines: after each acquire returns at {@code tc} the worker reads {@code lease.remaining()} and records
 * {@code tc + remaining}; remaining is computed from the lease's internal deadline at a later instant, so the recorded
 * deadline is never later than the real one. Before every read and write the deadline is observed again the same way
 * (a watchdog renewal moves it forward).
 */
final class Worker implements Runnable {

    /** How a worker behaves. */
    enum Variant {
        /** dlock leases, deadline respected. */
        HONEST,
        /** Control 1: {@link NaiveLock}, release without owner check; sometimes overruns its lease before releasing. */
        NAIVE_RELEASE,
        /** Control 2: dlock leases with a fixed lease time, but sometimes writes long after the deadline. */
        IGNORE_DEADLINE
    }

    /**
     * What a worker needs to know.
     *
     * @param scenario scenario name recorded in every operation
     * @param client client label, unique in the scenario
     * @param variant behaviour
     * @param lockName lock name
     * @param keyPrefix dlock key prefix (used by the naive lock)
     * @param ttl lease time
     * @param commandTimeout command timeout of the clients
     * @param holdMax longest ordinary hold between read and write
     * @param seed random seed of this worker
     * @param async use {@code acquireAsync} instead of {@code tryAcquire}
     */
    record Spec(
            String scenario,
            String client,
            Variant variant,
            String lockName,
            String keyPrefix,
            Duration ttl,
            Duration commandTimeout,
            Duration holdMax,
            long seed,
            boolean async) {}

    private final Spec spec;
    private final LockClient lockClient;
    private final RedisCommands<String, String> redis;
    private final FencedResource resource;
    private final History history;
    private final AtomicLong acquires;
    private final AtomicBoolean stop;
    private final AtomicLong stallNanos = new AtomicLong();
    private final Consumer<String> announce;
    private final Random random;
    private final NaiveLock naive;
    private final long pid = ProcessHandle.current().pid();
    private long seq;
    private long holds;

    Worker(
            Spec spec,
            LockClient lockClient,
            RedisCommands<String, String> redis,
            FencedResource resource,
            History history,
            AtomicLong acquires,
            AtomicBoolean stop,
            Consumer<String> announce) {
        this.spec = spec;
        this.lockClient = lockClient;
        this.redis = redis;
        this.resource = resource;
        this.history = history;
        this.acquires = acquires;
        this.stop = stop;
        this.announce = announce;
        this.random = new Random(spec.seed());
        this.naive = spec.variant() == Variant.NAIVE_RELEASE
                ? new NaiveLock(redis, spec.keyPrefix(), spec.lockName())
                : null;
    }

    /** Makes the next hold stall for {@code duration} after its read and announce {@code HOLDING <token>}. */
    void stallNextHold(Duration duration) {
        stallNanos.set(duration.toNanos());
    }

    @Override
    public void run() {
        while (!stop.get()) {
            try {
                cycle();
            } catch (RuntimeException e) {
                // recorded in the operation that failed; the loop goes on like a real client would
                pause(Duration.ofMillis(10));
            }
        }
    }

    private void cycle() {
        Duration wait = spec.ttl().multipliedBy(2);
        acquires.incrementAndGet();
        Op op = begin(Op.ACQUIRE, "", wait.plus(spec.commandTimeout()));
        Lease lease = null;
        long token;
        long deadline;
        try {
            if (naive != null) {
                token = naive.tryAcquire(spec.client() + "-" + seq, wait, spec.ttl());
                long tc = System.nanoTime();
                deadline = op.invoke() + spec.ttl().toNanos() - spec.ttl().toNanos() / 100 - 2_000_000L;
                end(op, tc, token != 0 ? Op.OK : Op.FAIL, token, token != 0 ? deadline : 0, token != 0 ? "" : "busy");
            } else {
                Optional<Lease> got = acquire(wait);
                long tc = System.nanoTime();
                lease = got.orElse(null);
                token = lease == null ? 0 : lease.fencingToken();
                deadline = lease == null ? 0 : tc + lease.remaining().toNanos();
                end(op, tc, lease != null ? Op.OK : Op.FAIL, token, deadline, lease != null ? "" : "busy");
                if (lease != null) {
                    recordLoss(lease, op.seq());
                }
            }
        } catch (RuntimeException e) {
            end(op, System.nanoTime(), Op.UNKNOWN, 0, 0, describe(e));
            return;
        }
        if (token == 0) {
            return;
        }
        try {
            criticalSection(lease, token, deadline);
        } finally {
            release(lease, token);
        }
        // think time: a releasing thread that tries again at once barges past every woken remote waiter (the lock is
        // not fair), and the holder JVMs the faults need would starve
        pause(Duration.ofNanos((long) (random.nextDouble() * spec.holdMax().toNanos() / 2)));
    }

    private Optional<Lease> acquire(Duration wait) {
        DistributedLock lock = lockClient.lock(spec.lockName());
        if (spec.variant() == Variant.IGNORE_DEADLINE) {
            return lock.tryAcquire(wait, spec.ttl());
        }
        if (!spec.async()) {
            return lock.tryAcquire(wait);
        }
        try {
            return Optional.ofNullable(lock.acquireAsync(wait).get());
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private void criticalSection(Lease lease, long token, long acquiredDeadline) {
        long deadline = observe(lease, acquiredDeadline);
        if (!mayUse(deadline)) {
            return;
        }
        String element = spec.client() + "-" + seq + "r";
        Op read = begin(Op.READ, element, spec.commandTimeout().toNanos(), token, deadline);
        String value;
        try {
            value = resource.read(redis, token, element);
            end(
                    read,
                    System.nanoTime(),
                    value != null ? Op.OK : Op.FAIL,
                    token,
                    deadline,
                    value != null ? "" : FenceChecker.REJECTED);
        } catch (RuntimeException e) {
            end(read, System.nanoTime(), Op.UNKNOWN, token, deadline, describe(e));
            return;
        }
        if (value == null) {
            return;
        }
        hold(token);
        deadline = observe(lease, acquiredDeadline);
        if (!mayUse(deadline)) {
            return;
        }
        element = spec.client() + "-" + seq + "w";
        Op write = begin(Op.WRITE, element, spec.commandTimeout().toNanos(), token, deadline);
        try {
            boolean stored = resource.write(redis, token, element, value + element + ",");
            end(
                    write,
                    System.nanoTime(),
                    stored ? Op.OK : Op.FAIL,
                    token,
                    deadline,
                    stored ? "" : FenceChecker.REJECTED);
        } catch (RuntimeException e) {
            end(write, System.nanoTime(), Op.UNKNOWN, token, deadline, describe(e));
        }
    }

    private void hold(long token) {
        long stall = stallNanos.getAndSet(0);
        if (stall > 0) {
            announce.accept("HOLDING " + token);
            pause(Duration.ofNanos(stall));
            return;
        }
        // every third hold of a broken variant overruns its lease, starting with the first: a control that never
        // misbehaved would pass for the wrong reason
        boolean overrun = holds++ % 3 == 0;
        if (spec.variant() == Variant.IGNORE_DEADLINE && overrun) {
            pause(spec.ttl().multipliedBy(3).dividedBy(2));
        } else if (spec.variant() == Variant.NAIVE_RELEASE && overrun) {
            pause(spec.ttl().multipliedBy(13).dividedBy(10));
        } else {
            pause(Duration.ofNanos((long) (random.nextDouble() * spec.holdMax().toNanos())));
        }
    }

    /** The honest client stops at its deadline; control 2 goes on regardless. */
    private boolean mayUse(long deadline) {
        return spec.variant() == Variant.IGNORE_DEADLINE || System.nanoTime() < deadline;
    }

    private long observe(Lease lease, long acquiredDeadline) {
        if (lease == null || spec.variant() == Variant.IGNORE_DEADLINE) {
            return acquiredDeadline;
        }
        long now = System.nanoTime();
        return now + lease.remaining().toNanos();
    }

    /**
     * Records the moment the lease reports itself lost: from then on it is not valid, whatever its deadline said.
     * Runs on the client's timer thread, hence its own sequence number (the acquire's, negated).
     */
    private void recordLoss(Lease lease, long acquireSeq) {
        long token = lease.fencingToken();
        lease.onLost(loss -> {
            long now = System.nanoTime();
            Op lost = new Op(
                    spec.scenario(),
                    spec.client(),
                    pid,
                    -acquireSeq,
                    Op.LOST,
                    now,
                    now,
                    Op.OK,
                    token,
                    0,
                    "",
                    0,
                    loss.getMessage());
            history.invoked(lost);
            history.completed(lost);
        });
    }

    private void release(Lease lease, long token) {
        Op op = begin(Op.RELEASE, "", spec.commandTimeout().toNanos(), token, 0);
        try {
            if (naive != null) {
                naive.release();
            } else {
                lease.release();
            }
            end(op, System.nanoTime(), Op.OK, token, 0, "");
        } catch (LockLostException e) {
            end(op, System.nanoTime(), Op.FAIL, token, 0, "lost: " + e.getMessage());
        } catch (RuntimeException e) {
            end(op, System.nanoTime(), Op.UNKNOWN, token, 0, describe(e));
        }
    }

    private Op begin(String type, String element, Duration timeout) {
        return begin(type, element, timeout.toNanos(), 0, 0);
    }

    private Op begin(String type, String element, long timeoutNanos, long token, long deadline) {
        Op op = new Op(
                spec.scenario(),
                spec.client(),
                pid,
                ++seq,
                type,
                System.nanoTime(),
                Long.MAX_VALUE,
                Op.UNKNOWN,
                token,
                deadline,
                element,
                timeoutNanos,
                "");
        history.invoked(op);
        return op;
    }

    private void end(Op op, long complete, String outcome, long token, long deadline, String detail) {
        history.completed(op.completed(complete, outcome, token, deadline, detail));
    }

    private static String describe(RuntimeException e) {
        String message = e.getClass().getSimpleName() + ": " + e.getMessage();
        return message.length() > 200 ? message.substring(0, 200) : message;
    }

    private static void pause(Duration duration) {
        if (!duration.isNegative() && !duration.isZero()) {
            try {
                TimeUnit.NANOSECONDS.sleep(duration.toNanos());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
