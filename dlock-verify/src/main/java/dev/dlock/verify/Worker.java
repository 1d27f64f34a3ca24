package dev.dlock.verify;

import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One client of the workload: loops acquire, fenced read, hold, fenced write, release, recording every call, taking
 * its lock names in turn (each name guards its own fenced resource). How it acquires is its {@link Acquirer.Style}. The
 * honest variant uses dlock and never touches the resource at or past its lease's validity deadline (a thread holder
 * also asks {@code isHeldByCurrentThread()} first); the broken variants of the negative controls misbehave in one way
 * each. Runs on one thread.
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
        IGNORE_DEADLINE,
        /** The read-write control: a hold recorded as a write is taken on the read lock (otherwise honest). */
        WRITERS_TAKE_READ_LOCK
    }

    /**
     * What a worker needs to know.
     *
     * @param scenario scenario name recorded in every operation
     * @param client client label, unique in the scenario
     * @param variant behaviour
     * @param lockNames the lock names it takes in turn (one fenced resource per name)
     * @param keyPrefix dlock key prefix (used by the naive lock)
     * @param ttl the run's TTL (the scale of waits and holds)
     * @param clientLease the lease time its client was built with
     * @param commandTimeout command timeout of the clients
     * @param holdMax longest ordinary hold between read and write
     * @param seed random seed of this worker
     * @param style how it acquires
     * @param ackTimeout how long a granting write may wait for replicas ({@code replicaAckTimeout}), or zero: an
     *     acquire's own bound is its wait, the command timeout and this (the WAIT runs after the script, on its own
     *     clock)
     * @param permits the permits of the semaphore a {@link Acquirer.Style#PERMIT} worker takes one of; 0 otherwise
     */
    record Spec(
            String scenario,
            String client,
            Variant variant,
            List<String> lockNames,
            String keyPrefix,
            Duration ttl,
            Duration clientLease,
            Duration commandTimeout,
            Duration holdMax,
            long seed,
            Acquirer.Style style,
            Duration ackTimeout,
            int permits) {}

    private final Spec spec;
    private final RedisCommands<String, String> redis;
    private final Function<String, FencedResource> resources;
    private final OpLog log;
    private final AtomicLong acquires;
    private final AtomicBoolean stop;
    private final AtomicLong stallNanos = new AtomicLong();
    private final AtomicLong stallLeaseNanos = new AtomicLong();
    private final Consumer<String> announce;
    private final Random random;
    private final NaiveLock naive;
    private final Acquirer acquirer;
    private long holds;
    private long cycles;
    private boolean lastFailed;

    Worker(
            Spec spec,
            LockClient lockClient,
            RedisCommands<String, String> redis,
            Function<String, FencedResource> resources,
            History history,
            AtomicLong acquires,
            AtomicBoolean stop,
            Consumer<String> announce) {
        this.spec = spec;
        this.redis = redis;
        this.resources = resources;
        this.log = new OpLog(history, spec.scenario(), spec.client());
        this.acquires = acquires;
        this.stop = stop;
        this.announce = announce;
        this.random = new Random(spec.seed());
        this.naive = spec.variant() == Variant.NAIVE_RELEASE
                ? new NaiveLock(redis, spec.keyPrefix(), spec.lockNames().get(0))
                : null;
        this.acquirer = new Acquirer(
                spec.style(),
                lockClient,
                spec.ttl(),
                spec.clientLease(),
                spec.commandTimeout().plus(spec.ackTimeout()),
                spec.holdMax(),
                random,
                spec.permits(),
                spec.variant() == Variant.WRITERS_TAKE_READ_LOCK);
    }

    /**
     * Makes the next hold whose acquire begins after this call stall for {@code duration} after its read and announce
     * {@code HOLDING <token>}; an acquire that fails with an error first announces {@code REFUSED <error>} and drops
     * the stall (a refused wait keeps it for the next acquire). Counting only acquires begun after the call makes the
     * stalled hold's grant a write made after whatever the caller did before (a replica held back, for one).
     */
    void stallNextHold(Duration duration) {
        stallLeaseNanos.set(0);
        stallNanos.set(duration.toNanos());
    }

    /**
     * As {@link #stallNextHold(Duration)}, and the stalled hold asks for a fixed lease of {@code lease} instead of the
     * worker's own (a fixed-lease worker only): long enough to outlive what the caller does meanwhile, and never
     * renewed, so the holder does not learn of a loss before its deadline.
     *
     * @throws IllegalStateException if the worker does not take fixed leases
     */
    void stallNextHold(Duration duration, Duration lease) {
        if (spec.style() != Acquirer.Style.FIXED_TTL && spec.style() != Acquirer.Style.SHORT_FIXED) {
            throw new IllegalStateException(spec.client() + " takes no fixed leases (" + spec.style() + ")");
        }
        stallLeaseNanos.set(lease.toNanos());
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
            if (lastFailed) {
                // a server that refuses everything (full memory) would otherwise get a retry every few ms
                pause(spec.holdMax().dividedBy(2));
            }
        }
    }

    private void cycle() {
        String name = spec.lockNames().get((int) (cycles++ % spec.lockNames().size()));
        acquires.incrementAndGet();
        Acquirer.Held held;
        long token;
        long deadline;
        long stall = 0;
        boolean shared = false;
        if (naive != null) {
            Duration wait = spec.ttl().multipliedBy(2);
            // lease time 0: the naive lock is not dlock, checker 6 judges only dlock's acquires
            Op op = log.beginAcquire(name, wait.plus(spec.commandTimeout()).toNanos(), 0, "");
            try {
                token = naive.tryAcquire(spec.client() + "-" + log.seq(), wait, spec.ttl());
            } catch (RuntimeException e) {
                log.end(op, System.nanoTime(), Op.UNKNOWN, 0, 0, describe(e));
                return;
            }
            long tc = System.nanoTime();
            deadline = op.invoke() + spec.ttl().toNanos() - spec.ttl().toNanos() / 100 - 2_000_000L;
            log.end(op, tc, token != 0 ? Op.OK : Op.FAIL, token, token != 0 ? deadline : 0, token != 0 ? "" : "busy");
            held = token == 0 ? null : new NaiveLock.Held(naive, token, deadline);
        } else {
            Acquirer.Plan plan = acquirer.plan();
            stall = stallNanos.getAndSet(0);
            long stallLease = stallLeaseNanos.get();
            if (stall > 0 && stallLease > 0) {
                plan = new Acquirer.Plan(
                        plan.waitTime(), stallLease, null, "tryAcquire(wait, stalled hold's lease)", plan.kind());
            }
            shared = plan.shared();
            Op op = log.beginAcquire(name, acquirer.timeoutNanos(plan), plan.leaseNanos(), plan.kind());
            Acquirer.Attempt attempt;
            try {
                attempt = acquirer.run(name, plan);
            } catch (RuntimeException e) {
                log.end(op, System.nanoTime(), Op.UNKNOWN, 0, 0, describe(e));
                lastFailed = true;
                if (stall > 0) {
                    announce.accept("REFUSED " + describe(e));
                }
                return;
            }
            lastFailed = false;
            held = attempt.held();
            if (held == null && stall > 0) {
                stallNanos.compareAndSet(0, stall); // not held: the next acquire stalls instead
            }
            token = held == null ? 0 : held.token();
            deadline = attempt.deadline();
            log.end(op, attempt.returned(), held != null ? Op.OK : Op.FAIL, token, deadline, attempt.detail());
            if (held != null) {
                log.recordLoss(held.lease(), op.seq(), name);
            }
        }
        if (held == null) {
            return;
        }
        try {
            criticalSection(held, name, token, deadline, stall, shared);
        } finally {
            release(held, name, token);
        }
        // think time: a releasing thread that tries again at once takes the lock before any remote waiter that has not
        // queued yet (FIFO holds among queued waiters only), and the holder JVMs the faults need would starve
        pause(Duration.ofNanos((long) (random.nextDouble() * spec.holdMax().toNanos() / 2)));
    }

    /** Fenced read, hold, fenced write; a read hold of a read-write lock ({@code shared}) only reads. */
    private void criticalSection(
            Acquirer.Held held, String name, long token, long acquiredDeadline, long stall, boolean shared) {
        FencedResource resource = resources.apply(name);
        long deadline = observe(held, acquiredDeadline);
        if (!mayUse(held, deadline)) {
            return;
        }
        String element = spec.client() + "-" + log.seq() + "r";
        Op read = log.begin(Op.READ, name, element, spec.commandTimeout().toNanos(), token, deadline);
        String value;
        try {
            value = resource.read(redis, token, element, shared);
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
        if (value == null) {
            return;
        }
        hold(token, deadline, stall);
        if (shared) {
            return;
        }
        deadline = observe(held, acquiredDeadline);
        if (!mayUse(held, deadline)) {
            return;
        }
        element = spec.client() + "-" + log.seq() + "w";
        Op write = log.begin(Op.WRITE, name, element, spec.commandTimeout().toNanos(), token, deadline);
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

    private void hold(long token, long deadline, long stall) {
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
            // a short lease gets a hold of at most a third of what it has left, a long one up to holdMax
            long left = Math.max(0, deadline - System.nanoTime());
            long max = Math.min(spec.holdMax().toNanos(), left / 3);
            pause(Duration.ofNanos((long) (random.nextDouble() * max)));
        }
    }

    /** The honest client stops at its deadline (and a thread holder also asks its lock); control 2 goes on. */
    private boolean mayUse(Acquirer.Held held, long deadline) {
        return spec.variant() == Variant.IGNORE_DEADLINE || (held.valid() && System.nanoTime() < deadline);
    }

    private long observe(Acquirer.Held held, long acquiredDeadline) {
        if (spec.variant() == Variant.IGNORE_DEADLINE) {
            return acquiredDeadline;
        }
        return held.observe();
    }

    private void release(Acquirer.Held held, String name, long token) {
        // With replicaAcks a release shares its connection with acked pairs (script + WAIT) and answers in order
        // behind them: it fails no earlier than such a pair, whose deadline is the command timeout plus the ack
        // timeout (docs/transport-resp.md, docs/transport-lettuce.md). Without acks ackTimeout is zero.
        Op op = log.begin(
                Op.RELEASE,
                name,
                "",
                spec.commandTimeout().plus(spec.ackTimeout()).toNanos(),
                token,
                0);
        try {
            held.release();
            log.end(op, System.nanoTime(), Op.OK, token, 0, "");
        } catch (LockLostException e) {
            log.end(op, System.nanoTime(), Op.FAIL, token, 0, "lost: " + e.getMessage());
        } catch (RuntimeException e) {
            log.end(op, System.nanoTime(), Op.UNKNOWN, token, 0, describe(e));
        }
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
