package dev.dlock.verify;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How one worker takes a lock (one {@link Style} per worker) and the hold it gets. Besides plain waits it interrupts
 * waiting acquires, lets short {@code tryLock} waits time out, cancels waiting async acquires and runs slow stages on
 * the future of {@code acquireAsync}, so the give-up and completion paths of the client are exercised under load. Used
 * by its worker's thread only.
 */
final class Acquirer {

    /** How a worker acquires. */
    enum Style {
        /** {@code tryAcquire(wait)}: watchdog-renewed lease; one try in six is interrupted while it waits. */
        LEASE,
        /** {@code acquireAsync(wait)} with slow stages; one try in six is cancelled while it waits. */
        ASYNC,
        /**
         * {@code lock()}, {@code tryLock(time)}, {@code lockInterruptibly()} and {@code unlock()}: a thread-owned hold;
         * some waits time out after a few ms, some are interrupted.
         */
        THREAD,
        /** {@code tryAcquire(wait, leaseTime)} with a short fixed lease of 100 ms to 100 ms + 0.3 TTL. */
        SHORT_FIXED,
        /** {@code tryAcquire(wait, ttl)}: fixed leases of one TTL (the deadline-ignoring controls). */
        FIXED_TTL,
        /** A semaphore's {@code tryAcquire(1, wait)}: a watchdog-renewed permit; one try in six is interrupted. */
        PERMIT,
        /** A semaphore's {@code acquireAsync(1, wait)} with slow stages; one try in six is cancelled while it waits. */
        PERMIT_ASYNC,
        /** As {@link #LEASE} on a read-write lock's read lock, or one time in four its write lock. */
        RW_LEASE,
        /** As {@link #ASYNC} on a read-write lock's read lock, or one time in four its write lock. */
        RW_ASYNC,
        /** As {@link #THREAD} on a read-write lock's read lock, or one time in four its write lock. */
        RW_THREAD;

        boolean readWrite() {
            return this == RW_LEASE || this == RW_ASYNC || this == RW_THREAD;
        }

        boolean async() {
            return this == ASYNC || this == PERMIT_ASYNC || this == RW_ASYNC;
        }
    }

    /** How often a read-write worker asks for the write lock instead of the read lock. */
    static final double WRITE_SHARE = 1 / 4.0;

    /** One hold: a lease, or the calling thread's hold through the {@code Lock} interface. */
    interface Held {
        long token();

        /** The validity deadline as observed now: {@code nanoTime() + remaining}. */
        long observe();

        /** What the honest client asks before each use: {@code isHeldByCurrentThread()} for a thread hold. */
        boolean valid();

        void release();

        /** The lease, for its loss listener; {@code null} for the naive lock. */
        Lease lease();
    }

    /**
     * What the next attempt does.
     *
     * @param waitTime how long it may wait, or {@code null} for {@code lock()} (forever)
     * @param leaseNanos the lease time asked for
     * @param interruptAfter interrupt (or cancel) the wait after this long, or {@code null}
     * @param call a short label of the call, recorded in the history
     * @param kind for a read-write style, {@link Op#KIND_READ} or {@link Op#KIND_WRITE}: the hold the worker asks for
     *     and records; else empty
     */
    record Plan(Duration waitTime, long leaseNanos, Duration interruptAfter, String call, String kind) {
        Plan(Duration waitTime, long leaseNanos, Duration interruptAfter, String call) {
            this(waitTime, leaseNanos, interruptAfter, call, "");
        }

        boolean shared() {
            return Op.KIND_READ.equals(kind);
        }
    }

    /**
     * The outcome of one attempt.
     *
     * @param held the hold, or {@code null} when none was had
     * @param returned when the call returned (for an async acquire: when its first stage ran)
     * @param deadline {@code returned + remaining()} read right after, or 0
     * @param detail why there is no hold, or {@link FreshHoldChecker#NOT_HELD}, or empty
     */
    record Attempt(Held held, long returned, long deadline, String detail) {}

    /** One daemon thread for every worker's interrupts; a task is a single {@code Thread.interrupt()}. */
    private static final ScheduledExecutorService INTERRUPTER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "dlock-verify-interrupter");
        thread.setDaemon(true);
        return thread;
    });

    private final Style style;
    private final LockClient client;
    private final Duration ttl;
    private final Duration commandTimeout;
    private final Duration holdMax;
    private final Random random;
    private final long clientLease;
    private final int permits;
    private final boolean writersTakeReadLock;

    /**
     * @param clientLease the lease time the client was built with (its watchdog-renewed leases and thread holds)
     * @param permits the permits of the semaphore the permit styles take from (0 for the others)
     * @param writersTakeReadLock for the negative control only: a read-write style's write hold is taken on the read
     *     lock (and still recorded as a write)
     */
    Acquirer(
            Style style,
            LockClient client,
            Duration ttl,
            Duration clientLease,
            Duration commandTimeout,
            Duration holdMax,
            Random random,
            int permits,
            boolean writersTakeReadLock) {
        this.style = style;
        this.client = client;
        this.ttl = ttl;
        this.clientLease = clientLease.toNanos();
        this.commandTimeout = commandTimeout;
        this.holdMax = holdMax;
        this.random = random;
        this.permits = permits;
        this.writersTakeReadLock = writersTakeReadLock;
    }

    Plan plan() {
        if (style.readWrite()) {
            String kind = random.nextDouble() < WRITE_SHARE ? Op.KIND_WRITE : Op.KIND_READ;
            Plan plan = basePlan(
                    style == Style.RW_LEASE ? Style.LEASE : style == Style.RW_ASYNC ? Style.ASYNC : Style.THREAD);
            return new Plan(plan.waitTime(), plan.leaseNanos(), plan.interruptAfter(), kind + " " + plan.call(), kind);
        }
        return basePlan(style);
    }

    private Plan basePlan(Style style) {
        Duration wait = ttl.multipliedBy(2);
        Duration soon = Duration.ofMillis(5 + random.nextInt((int) Math.max(1, holdMax.toMillis())));
        double roll = random.nextDouble();
        return switch (style) {
            case LEASE, PERMIT ->
                roll < 1 / 6.0
                        ? new Plan(wait, clientLease, soon, "tryAcquire(wait), interrupted")
                        : new Plan(wait, clientLease, null, "tryAcquire(wait)");
            case ASYNC, PERMIT_ASYNC ->
                roll < 1 / 6.0
                        ? new Plan(wait, clientLease, soon, "acquireAsync(wait), cancelled")
                        : new Plan(wait, clientLease, null, "acquireAsync(wait)");
            case THREAD -> {
                if (roll < 1 / 6.0) {
                    yield new Plan(Duration.ofMillis(10 + random.nextInt(40)), clientLease, null, "tryLock(short)");
                } else if (roll < 2 / 6.0) {
                    yield new Plan(null, clientLease, soon, "lockInterruptibly(), interrupted");
                } else if (roll < 3.5 / 6.0) {
                    yield new Plan(wait, clientLease, null, "tryLock(wait)");
                }
                yield new Plan(null, clientLease, null, "lock()");
            }
            case SHORT_FIXED -> {
                long lease = 100 + random.nextInt((int) Math.max(1, ttl.toMillis() * 3 / 10));
                yield new Plan(wait, Duration.ofMillis(lease).toNanos(), null, "tryAcquire(wait, " + lease + "ms)");
            }
            case FIXED_TTL -> new Plan(wait, ttl.toNanos(), null, "tryAcquire(wait, ttl)");
            case RW_LEASE, RW_ASYNC, RW_THREAD -> throw new IllegalArgumentException("style " + style);
        };
    }

    /** The call's own bound for the liveness checker: wait + command timeout, or 0 for {@code lock()}. */
    long timeoutNanos(Plan plan) {
        return plan.waitTime() == null
                ? 0
                : plan.waitTime().plus(commandTimeout).toNanos();
    }

    /**
     * Runs the attempt.
     *
     * @throws RuntimeException when the client reports an error (the outcome is then unknown)
     */
    Attempt run(String name, Plan plan) {
        DistributedLock lock = client.lock(name); // no I/O: a handle, also for a name the permit styles take
        ScheduledFuture<?> interrupt = !style.async() && plan.interruptAfter() != null
                ? INTERRUPTER.schedule(
                        Thread.currentThread()::interrupt, plan.interruptAfter().toNanos(), TimeUnit.NANOSECONDS)
                : null;
        try {
            return switch (style) {
                case LEASE -> lease(lock.tryAcquire(plan.waitTime()), plan);
                case SHORT_FIXED, FIXED_TTL ->
                    lease(lock.tryAcquire(plan.waitTime(), Duration.ofNanos(plan.leaseNanos())), plan);
                case ASYNC -> async(lock.acquireAsync(plan.waitTime()), plan);
                case THREAD -> thread(lock, plan);
                case PERMIT -> lease(client.semaphore(name, permits).tryAcquire(1, plan.waitTime()), plan);
                case PERMIT_ASYNC -> async(client.semaphore(name, permits).acquireAsync(1, plan.waitTime()), plan);
                case RW_LEASE -> lease(view(name, plan).tryAcquire(plan.waitTime()), plan);
                case RW_ASYNC -> async(view(name, plan).acquireAsync(plan.waitTime()), plan);
                case RW_THREAD -> thread(view(name, plan), plan);
            };
        } catch (LockException e) {
            if (interrupt != null && settle(interrupt)) {
                return new Attempt(null, System.nanoTime(), 0, "interrupted");
            }
            throw e;
        } finally {
            if (interrupt != null) {
                settle(interrupt);
            }
        }
    }

    /** The read-write lock's view the plan asks for (no I/O); the control's writers are given the read lock. */
    private DistributedLock view(String name, Plan plan) {
        DistributedReadWriteLock lock = client.readWriteLock(name);
        return plan.shared() || writersTakeReadLock ? lock.readLock() : lock.writeLock();
    }

    /** Makes sure the scheduled interrupt is either cancelled or done, then clears the flag; tells if it was set. */
    private static boolean settle(ScheduledFuture<?> interrupt) {
        if (!interrupt.cancel(false)) {
            try {
                interrupt.get();
            } catch (InterruptedException | ExecutionException | CancellationException e) {
                // the task is a single interrupt() and cannot fail; our own flag is cleared below
            }
        }
        return Thread.interrupted();
    }

    private Attempt lease(Optional<Lease> got, Plan plan) {
        long returned = System.nanoTime();
        if (got.isEmpty()) {
            return new Attempt(null, returned, 0, "busy");
        }
        Lease lease = got.get();
        return new Attempt(
                new LeaseHeld(lease), returned, returned + lease.remaining().toNanos(), "");
    }

    private Attempt async(CompletableFuture<Lease> source, Plan plan) {
        long[] seen = new long[2];
        long firstStage = (long) (random.nextDouble() * holdMax.toNanos() / 2);
        long secondStage = (long) (random.nextDouble() * holdMax.toNanos() / 4);
        // slow on purpose: both stages may run on a dlock I/O thread, which must not stall the client's other work
        CompletableFuture<Lease> staged = source.thenApply(lease -> {
                    seen[0] = System.nanoTime();
                    seen[1] = lease == null ? 0 : seen[0] + lease.remaining().toNanos();
                    FaultInjector.sleep(Duration.ofNanos(firstStage));
                    return lease;
                })
                .whenComplete((lease, error) -> FaultInjector.sleep(Duration.ofNanos(secondStage)));
        if (plan.interruptAfter() != null) {
            FaultInjector.sleep(plan.interruptAfter());
            source.cancel(true);
        }
        Lease lease;
        try {
            lease = staged.get(timeoutNanos(plan) + 5_000_000_000L, TimeUnit.NANOSECONDS);
        } catch (CancellationException e) {
            return new Attempt(null, System.nanoTime(), 0, "cancelled");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException) {
                return new Attempt(null, System.nanoTime(), 0, "cancelled");
            }
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("acquireAsync never completed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (lease == null) {
            return new Attempt(null, System.nanoTime(), 0, "busy");
        }
        return new Attempt(new LeaseHeld(lease), seen[0], seen[1], "");
    }

    private Attempt thread(DistributedLock lock, Plan plan) {
        boolean got;
        try {
            if (plan.waitTime() != null) {
                got = lock.tryLock(plan.waitTime().toNanos(), TimeUnit.NANOSECONDS);
            } else if (plan.interruptAfter() != null) {
                lock.lockInterruptibly();
                got = true;
            } else {
                lock.lock();
                got = true;
            }
        } catch (InterruptedException e) {
            return new Attempt(null, System.nanoTime(), 0, "interrupted");
        }
        long returned = System.nanoTime();
        if (!got) {
            return new Attempt(null, returned, 0, "busy");
        }
        boolean heldNow = lock.isHeldByCurrentThread();
        long deadline = returned + lock.remaining().toNanos();
        return new Attempt(new ThreadHeld(lock), returned, deadline, heldNow ? "" : FreshHoldChecker.NOT_HELD);
    }

    private record LeaseHeld(Lease lease) implements Held {
        @Override
        public long token() {
            return lease.fencingToken();
        }

        @Override
        public long observe() {
            long now = System.nanoTime();
            return now + lease.remaining().toNanos();
        }

        @Override
        public boolean valid() {
            return true; // the lease user judges by the deadline alone
        }

        @Override
        public void release() {
            lease.release();
        }
    }

    /**
     * The calling thread's hold, seen through the {@code Lock} interface alone: token and validity from {@code
     * fencingToken()} and {@code remaining()}. It has no loss listener, so its interval ends at the last deadline its
     * thread observed or at {@code unlock()}.
     */
    private record ThreadHeld(DistributedLock lock) implements Held {
        @Override
        public long token() {
            return lock.fencingToken();
        }

        @Override
        public long observe() {
            long now = System.nanoTime();
            return now + lock.remaining().toNanos();
        }

        @Override
        public boolean valid() {
            return lock.isHeldByCurrentThread();
        }

        @Override
        public void release() {
            lock.unlock();
        }

        @Override
        public Lease lease() {
            return null;
        }
    }
}
