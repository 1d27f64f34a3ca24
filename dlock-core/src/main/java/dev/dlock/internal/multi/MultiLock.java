package dev.dlock.internal.multi;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import dev.dlock.internal.util.Args;
import dev.dlock.internal.util.Callbacks;
import dev.dlock.internal.util.CallerChecked;
import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.Log;
import dev.dlock.internal.util.ThreadHolds;
import dev.dlock.internal.util.ThreadLocking;
import dev.dlock.internal.util.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A multi-lock (docs/lock-family.md): one {@link DistributedLock} over several names that holds all of
 * them or none.
 *
 * <p>Protocol: the names are sorted and de-duplicated once, and every acquire takes the names' own
 * locks one after the other in that order, each through the name's FIFO queue and hand-off (or, on
 * Redlock, its quorum acquire), within one deadline for the whole acquire. Every multi-lock and every
 * single lock take the names they share in the same total order, so a wait never closes a cycle: no
 * deadlock, whatever order the caller gave the names in. An acquire that times out, is interrupted,
 * cancelled or fails releases the names it took before it returns. Each name's hold is a lease of
 * its own owner id, renewed by the watchdog as any lease; {@link MultiLease} makes them one.
 *
 * <p>A name taken before a wait for a later one can be lost during that wait (its key deleted by a
 * failover without acknowledgements, an eviction or an operator; a pause longer than its lease) and be
 * taken by another client. So before it returns, a blocking acquire checks every part on the caller's
 * thread as a single acquire checks its hold ({@link CallerChecked}): a part taken more than {@value
 * #CONFIRM_AFTER_MILLIS} ms before the last one is confirmed in Redis by a renewal (one round trip), and
 * any part lost or under half its lease fails the check; then every name is released and the acquire
 * starts over within its deadline (MultiLostPartContract). An uncontended acquire takes its names
 * within that time and costs no extra round trip. The asynchronous acquire ({@link MultiAcquire})
 * checks the parts by this JVM's clock, without I/O.
 *
 * <p>Thread-owned holds ({@code lock()}) are counted per thread and per set of names in the client's
 * {@link ThreadHolds} (the multi-lock role); they are lease-owned holds underneath, so a thread holding a multi-lock that
 * calls {@code lock()} on one of its names waits for itself, as a thread holding a lease does.
 * Thread-safe.
 */
public final class MultiLock extends ThreadLocking {
    private final List<String> names;
    private final List<DistributedLock> locks;
    private final String label;
    private final Callbacks callbacks;
    private final Ticker ticker; // the client's clock: deadlines, and how long ago a part was taken
    private final Lifecycle lifecycle;
    private final boolean checkParts; // off only for the negative control Controls.Control.MULTI_LOST_PART

    /** A part taken longer ago than this before the acquire's end is confirmed in Redis: it spanned a wait. */
    static final long CONFIRM_AFTER_MILLIS = 50;

    private MultiLock(
            List<String> names,
            List<DistributedLock> locks,
            ThreadHolds holds,
            Callbacks callbacks,
            Ticker ticker,
            Lifecycle lifecycle,
            boolean checkParts) {
        super(holds, ThreadHolds.MULTI, names);
        this.ticker = ticker;
        this.checkParts = checkParts;
        this.names = names;
        this.lifecycle = lifecycle;
        this.locks = locks;
        this.label = names.toString();
        this.callbacks = callbacks;
    }

    /**
     * Checks the names (before any I/O), sorts and de-duplicates them, and makes the multi-lock over
     * the names' locks.
     *
     * @param ticker the client's clock
     * @param checkParts false only for the negative control {@code multi-lost-part}: the acquire returns
     *     without checking the parts it took before its last one (fixed leases are still extended)
     * @throws NullPointerException naming {@code names} or {@code names[i]}
     * @throws IllegalArgumentException if there is no name, or naming {@code names[i]} if it is blank or
     *     too long
     */
    public static MultiLock of(
            String[] names,
            int maxNameLength,
            Function<String, DistributedLock> lockOfName,
            ThreadHolds holds,
            Callbacks callbacks,
            Ticker ticker,
            Lifecycle lifecycle,
            boolean checkParts) {
        Objects.requireNonNull(names, "names");
        if (names.length == 0) {
            throw new IllegalArgumentException("names must hold at least one lock name");
        }
        TreeSet<String> sorted = new TreeSet<>();
        for (int i = 0; i < names.length; i++) {
            String name = Objects.requireNonNull(names[i], "names[" + i + "]");
            if (name.isBlank()) {
                throw new IllegalArgumentException("names[" + i + "] must not be blank");
            }
            if (name.length() > maxNameLength) {
                throw new IllegalArgumentException(
                        "names[" + i + "] must be at most " + maxNameLength + " characters, was " + name.length());
            }
            sorted.add(name);
        }
        List<String> ordered = List.copyOf(sorted);
        List<DistributedLock> locks = new ArrayList<>(ordered.size());
        for (String name : ordered) {
            locks.add(lockOfName.apply(name));
        }
        return new MultiLock(ordered, List.copyOf(locks), holds, callbacks, ticker, lifecycle, checkParts);
    }

    /** The names as a label, {@code [a, b]}: sorted, distinct. */
    @Override
    public String name() {
        return label;
    }

    // ---- thread-owned ----------------------------------------------------------------------

    /** A re-entry throws the loss if a name's lease was lost ({@link MultiLease#confirmForReentry}). */
    @Override
    protected MultiLease takeForThread(long waitNanos, boolean interruptible) throws InterruptedException {
        return acquireAll(waitNanos, null, interruptible);
    }

    @Override
    public Map<String, Long> fencingTokens() {
        return heldOrThrow().lease.fencingTokens();
    }

    // ---- lease-owned -----------------------------------------------------------------------

    /** Watchdog-renewed leases take each name's lock's lease time ({@code leaseMillis} is not used then). */
    @Override
    protected Lease awaitLease(long waitNanos, long leaseMillis, boolean renewed) throws InterruptedException {
        return acquireAll(waitNanos, renewed ? null : Duration.ofMillis(leaseMillis), true);
    }

    /** Not used: each name's lock has its client's. */
    @Override
    protected long clientLeaseMillis() {
        return 0;
    }

    @Override
    protected String waitedFor() {
        return "multi-lock " + label;
    }

    @Override
    public CompletableFuture<Lease> acquireAsync(Duration wait) {
        Duration w = Args.notNegative("wait", wait);
        lifecycle.checkOpen(); // as documented: thrown, not a failed future from the first name's acquire
        return new MultiAcquire(locks, label, ticker, ticker.nanos() + w.toNanos(), callbacks, checkParts).start();
    }

    /**
     * Takes every name in order within one deadline; on any way out but success, releases what it
     * took before returning.
     *
     * @param leaseTime a fixed lease time for every name, or null for watchdog-renewed leases
     * @return the lease, or null when the wait ran out
     * @throws InterruptedException if interruptible and interrupted (nothing is held then)
     */
    private MultiLease acquireAll(long waitNanos, Duration leaseTime, boolean interruptible)
            throws InterruptedException {
        long deadline = waitNanos == FOREVER ? 0 : ticker.nanos() + waitNanos;
        List<Lease> taken = new ArrayList<>(locks.size());
        List<Long> takenAt = new ArrayList<>(locks.size());
        boolean done = false;
        try {
            while (true) {
                if (!takeInOrder(taken, takenAt, waitNanos == FOREVER, deadline, leaseTime, interruptible)) {
                    return null;
                }
                if (checkParts ? keptForCaller(taken, takenAt) : leaseTime == null || halfValid(taken, leaseTime)) {
                    break;
                }
                // a part was lost, or its lease ran low, while a later name was waited for: take them all again
                MultiLease.releaseAndWait(taken);
                taken.clear();
                takenAt.clear();
            }
            MultiLease multi = new MultiLease(label, taken, callbacks);
            done = true;
            return multi;
        } finally {
            if (!done) {
                MultiLease.releaseAndWait(taken);
            }
        }
    }

    /**
     * Takes each name in order into {@code taken}.
     *
     * @return false when a name stayed busy until the deadline
     * @throws InterruptedException if interruptible and interrupted
     */
    private boolean takeInOrder(
            List<Lease> taken,
            List<Long> takenAt,
            boolean forever,
            long deadline,
            Duration leaseTime,
            boolean interruptible)
            throws InterruptedException {
        boolean interrupted = false;
        try {
            for (DistributedLock lock : locks) {
                Lease lease;
                while (true) {
                    try {
                        lease = acquireOne(lock, forever, deadline, leaseTime);
                        break;
                    } catch (LockException e) {
                        // Each name's own acquire leaves nothing behind when interrupted, and keeps the flag.
                        if (!(e.getCause() instanceof InterruptedException) || !Thread.interrupted()) {
                            throw e;
                        }
                        if (interruptible) {
                            throw new InterruptedException(
                                    "interrupted while waiting for '" + lock.name() + "' of multi-lock " + label);
                        }
                        interrupted = true; // lock(): wait on for this name, and keep the interrupt for later
                    }
                }
                if (lease == null) {
                    return false;
                }
                taken.add(lease);
                takenAt.add(ticker.nanos());
            }
            return true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether every part can be returned: each checked as a single acquire checks its hold on the caller's
     * thread, and each taken before a wait for a later name confirmed in Redis first. Stops at the first
     * part that fails (the caller releases them all).
     */
    private static boolean keptForCaller(List<Lease> taken, List<Long> takenAt) {
        long last = takenAt.get(takenAt.size() - 1);
        for (int i = 0; i < taken.size(); i++) {
            boolean confirm = last - takenAt.get(i) > TimeUnit.MILLISECONDS.toNanos(CONFIRM_AFTER_MILLIS);
            Lease part = taken.get(i);
            boolean kept = part instanceof CallerChecked checked ? checked.keepForCaller(confirm) : part.isValid();
            if (!kept) {
                Log.LOG.log(
                        System.Logger.Level.INFO,
                        "dlock: ''{0}'' of a multi-lock was lost or ran low while a later name was waited for;"
                                + " every name is released and the acquire starts over",
                        part.lockName());
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every fixed lease has at least half its lease time left, as every acquire promises;
     * an early name's lease that has less is extended to the full lease time (one round trip).
     */
    private static boolean halfValid(List<Lease> taken, Duration leaseTime) {
        Duration half = leaseTime.dividedBy(2);
        for (Lease lease : taken) {
            if (lease.remaining().compareTo(half) < 0 && !lease.expireIn(leaseTime)) {
                return false;
            }
        }
        return true;
    }

    private Lease acquireOne(DistributedLock lock, boolean forever, long deadline, Duration leaseTime) {
        if (forever && leaseTime == null) {
            return lock.acquire();
        }
        Duration left = forever ? Args.MAX_DURATION : Duration.ofNanos(Math.max(0, deadline - ticker.nanos()));
        return (leaseTime == null ? lock.tryAcquire(left) : lock.tryAcquire(left, leaseTime)).orElse(null);
    }

    // ---- inspection ------------------------------------------------------------------------

    /** Whether any of the names is held (by anyone): one round trip per name, stopping at the first. */
    @Override
    public boolean isLocked() {
        for (DistributedLock lock : locks) {
            if (lock.isLocked()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Not supported: a snapshot names one holder and one token, and a multi-lock's names each have
     * their own; ask {@code client.lock(name).info()} per name.
     */
    @Override
    public LockInfo info() {
        throw new UnsupportedOperationException(
                "a multi-lock has no single LockInfo; use client.lock(name).info() for each of " + label);
    }

    @Override
    public String toString() {
        return "DistributedLock[multi " + label + "]";
    }
}
