package dev.dlock.sim;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The callers of a {@link Simulation} on the blocking API, each on a logical thread of its own ({@link CallerThreads}):
 * thread-owned holds of a mutex, of a multi-lock of two mutex names and of a lock of the client's Redlock client
 * through {@code lock()}, {@code lockInterruptibly()}, {@code tryLock(wait)} and {@code unlock()}, interrupted part way
 * now and then and re-entered now and then ({@link ThreadLocks}); and read and write holds of fixed leases of 8 to 9
 * days through {@code tryAcquire(wait, leaseTime)}, given back with the blocking {@code release()}. A thread's owner id
 * is the same for every lock it takes, so a hand-off meant for one of its waits can meet another (what {@code
 * cross-lock-grant} gets wrong); a fixed lease over 7 days beside the others' 1 s leases needs the holders' hash to
 * live as long as its longest lease (what {@code holders-expiry-lowered} gets wrong). Permits of the semaphore {@link
 * #SEMAPHORE} with fixed leases of 8 to 9 days, some held through a suspended week, beside {@code setPermits} of it by
 * the first of these callers, need its record to keep the count set while they are held (what {@code lost-set-permits}
 * gets wrong). Their holds go into the run's {@link HoldBook} like every other caller's. A thread has one hold at a
 * time. Not thread-safe: used by whichever thread has the turn.
 */
final class BlockingCallers {
    private static final long MS = 1_000_000;
    private static final long DAY_MS = 24 * 3600 * 1000L;
    /** The longest fixed lease they ask for. */
    static final long LONGEST_LEASE_MS = 9 * DAY_MS;
    /** The semaphore whose count the thread callers change, and whose permits they hold for days. */
    static final String SEMAPHORE = "s0";

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final SplittableRandom random;
    private final Set<Long> unreleased = new LinkedHashSet<>();
    private final Map<String, Integer> unknown = new LinkedHashMap<>();
    private final Map<Integer, LockClient> redlocks = new HashMap<>(); // by caller: its client's Redlock client
    private final ThreadLocks locks;

    /**
     * @param run the run whose book, trace and counters the holds go to
     * @param config its config
     * @param loop its world
     * @param random the draws of these callers
     */
    BlockingCallers(Simulation run, SimConfig config, EventLoop loop, SplittableRandom random) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.random = random;
        this.locks = new ThreadLocks(run, config, loop, random);
    }

    /**
     * A client of the single server told its listeners that its hold of {@code name} with {@code token} was lost or
     * expired: a thread's view of that hold (and of the other names of its multi-lock) ends now ({@link ThreadLocks}).
     */
    void lost(String name, long token) {
        locks.lost(name, token);
    }

    /** The fencing tokens of fixed-lease holds whose release was not confirmed: they may live on to their end. */
    Set<Long> unreleased() {
        return unreleased;
    }

    /**
     * Per name, how many fixed-lease acquires of it failed with their outcome unknown (a {@code LockException}): a hold
     * one took or was granted may live on to the end of its lease when the client's undo cannot reach the server either.
     */
    Map<String, Integer> unknownOutcomes() {
        return unknown;
    }

    /**
     * Starts caller {@code id} of {@code client} on thread {@code thread}, after a short think; {@code redlock} is the
     * client's Redlock client, or null if the run has none.
     */
    void start(CallerThreads.Caller thread, int id, LockClient client, LockClient redlock) {
        if (redlock != null) {
            redlocks.put(id, redlock);
        }
        thread.submit(random.nextLong(0, 50 * MS), () -> next(thread, id, client));
    }

    /** One operation, on the caller's thread; the next is submitted when it is over. */
    private void next(CallerThreads.Caller thread, int id, LockClient client) {
        if (run.draining()) {
            return;
        }
        if (run.weeks().pausing()) { // a suspended week comes: nothing new until it has passed
            run.weeks().defer(() -> again(thread, id, client));
            return;
        }
        int n = config.namesPerKind();
        long[] waits = {0, 50, 500, 3000};
        long waitMs = waits[random.nextInt(waits.length)];
        int op = random.nextInt(10);
        Kind held = op < 4 ? Kind.MUTEX : op == 4 ? Kind.MULTI : op == 5 ? Kind.REDLOCK : null;
        LockClient redlock = redlocks.get(id);
        if (held == Kind.MULTI && n < 2 || held == Kind.REDLOCK && redlock == null) {
            held = Kind.MUTEX; // no second name, or no Redlock, in this world
        }
        if (held != null) {
            String name = (held == Kind.REDLOCK ? "r" : "m") + random.nextInt(n);
            DistributedLock lock = switch (held) {
                case MULTI -> client.multiLock(name, "m" + (name.charAt(1) - '0' + 1 + random.nextInt(n - 1)) % n);
                case REDLOCK -> redlock.lock(name);
                default -> client.lock(name);
            };
            locks.take(thread, id, held, lock, waitMs, () -> again(thread, id, client));
        } else if (op < 8) {
            fixed(thread, id, client, "rw" + random.nextInt(n), random.nextBoolean() ? Kind.READ : Kind.WRITE, waitMs);
        } else if (op == 9 && id == config.clients() * config.callersPerClient()) {
            setPermits(thread, id, client);
        } else {
            permit(thread, id, client, waitMs);
        }
    }

    private void again(CallerThreads.Caller thread, int id, LockClient client) {
        thread.submit(random.nextLong(0, 100 * MS), () -> next(thread, id, client));
    }

    /** A read or write hold of a fixed lease of 8 to 9 days, through {@code tryAcquire(wait, leaseTime)}. */
    private void fixed(CallerThreads.Caller thread, int id, LockClient client, String name, Kind kind, long waitMs) {
        DistributedLock view = kind == Kind.READ
                ? client.readWriteLock(name).readLock()
                : client.readWriteLock(name).writeLock();
        Duration leaseTime = Duration.ofMillis(8 * DAY_MS + random.nextLong(0, DAY_MS));
        if (random.nextInt(10) == 0) {
            thread.interrupt(random.nextLong(0, 200 * MS), thread.running());
        }
        long started = loop.now();
        run.acquireStarted();
        Optional<Lease> taken = Optional.empty();
        int outcome = 0;
        try {
            taken = view.tryAcquire(Duration.ofMillis(waitMs), leaseTime);
        } catch (LockException e) { // the network's, or an interrupt (as a LockException)
            unknown.merge(name, 1, Integer::sum);
            outcome = 3;
        } catch (RuntimeException e) {
            run.violation("thread caller " + id + "'s " + kind + " tryAcquire of " + name + " threw " + e);
            outcome = 9;
        } finally {
            run.acquireEnded(id, kind + " tryAcquire of " + name, started, waitMs * MS);
        }
        Thread.interrupted();
        run.observe(id, 14, taken.isPresent() ? 1 : 0, outcome);
        if (taken.isEmpty()) {
            again(thread, id, client);
            return;
        }
        Lease lease = taken.get();
        Hold hold = new Hold(kind, name, lease.fencingToken(), HoldBook.View.of(lease), id);
        run.held(hold, lease.remaining(), leaseTime.toMillis(), "thread caller " + id + "'s " + kind + " of " + name);
        long holdFor = random.nextLong(0, config.leaseMillis());
        thread.submit(holdFor * MS, () -> giveBack(thread, id, client, lease, hold, 15));
    }

    /**
     * Gives back a fixed-lease hold with the blocking {@code release()}, traced under {@code code}, and starts the
     * caller's next operation; a release not confirmed leaves the hold to live on to its end, by design.
     */
    private void giveBack(CallerThreads.Caller thread, int id, LockClient client, Lease lease, Hold hold, int code) {
        run.book().released(hold);
        int released = 0;
        try {
            lease.release();
        } catch (LockException e) { // not confirmed: the hold may live on to the end of its lease, by design
            unreleased.add(hold.token());
            released = 1;
        }
        run.observe(id, code, released);
        again(thread, id, client);
    }

    /**
     * {@code setPermits} of {@link #SEMAPHORE} to 1, 2 or its created count; only the run's first thread caller calls
     * it, so the calls are one after another on one client's link, and the book knows the count in force.
     */
    private void setPermits(CallerThreads.Caller thread, int id, LockClient client) {
        int count = 1 + random.nextInt(config.permits());
        run.book().setPermitsStarted(SEMAPHORE);
        int outcome = 0;
        try {
            client.semaphore(SEMAPHORE, config.permits()).setPermits(count);
            run.book().setPermitsDone(SEMAPHORE, count, loop.now());
        } catch (LockException e) { // the network's: its outcome is unknown
            outcome = 3;
        } catch (RuntimeException e) {
            run.violation("thread caller " + id + "'s setPermits(" + count + ") of " + SEMAPHORE + " threw " + e);
            outcome = 9;
        }
        run.observe(id, 16, count, outcome);
        again(thread, id, client);
    }

    /**
     * A permit of {@link #SEMAPHORE} with a fixed lease of 8 to 9 days through {@code tryAcquire(1, wait, leaseTime)},
     * checked against the count in force; now and then held through a suspended week ({@link SuspendedWeeks}),
     * so its name goes 7 days without a use while it is held.
     */
    private void permit(CallerThreads.Caller thread, int id, LockClient client, long waitMs) {
        Duration leaseTime = Duration.ofMillis(8 * DAY_MS + random.nextLong(0, DAY_MS));
        long started = loop.now();
        run.acquireStarted();
        Optional<Lease> taken = Optional.empty();
        int outcome = 0;
        try {
            taken = client.semaphore(SEMAPHORE, config.permits()).tryAcquire(1, Duration.ofMillis(waitMs), leaseTime);
        } catch (LockException e) { // the network's
            unknown.merge(SEMAPHORE, 1, Integer::sum);
            outcome = 3;
        } catch (RuntimeException e) {
            run.violation("thread caller " + id + "'s tryAcquire of " + SEMAPHORE + " threw " + e);
            outcome = 9;
        } finally {
            run.acquireEnded(id, "tryAcquire of " + SEMAPHORE, started, waitMs * MS);
        }
        run.observe(id, 17, taken.isPresent() ? 1 : 0, outcome);
        if (taken.isEmpty()) {
            again(thread, id, client);
            return;
        }
        Lease lease = taken.get();
        Hold hold = new Hold(Kind.PERMIT, SEMAPHORE, lease.fencingToken(), HoldBook.View.of(lease), id);
        run.held(hold, lease.remaining(), leaseTime.toMillis(), "thread caller " + id + "'s permit of " + SEMAPHORE);
        String wrong = run.book().withinCount(hold, started);
        if (wrong != null) {
            run.violation(wrong);
        }
        long weeks = run.weeks().passed();
        boolean throughAWeek = random.nextInt(2) == 0 && run.weeks().request();
        holdPermit(
                thread,
                id,
                client,
                lease,
                hold,
                weeks,
                throughAWeek,
                loop.now() + random.nextLong(0, 3 * config.leaseMillis()) * MS);
    }

    /** Holds a permit until {@code until}, or, if {@code throughAWeek}, until a while after the next week passed. */
    private void holdPermit(
            CallerThreads.Caller thread,
            int id,
            LockClient client,
            Lease lease,
            Hold hold,
            long weeks,
            boolean throughAWeek,
            long until) {
        if (throughAWeek && run.weeks().passed() == weeks && !run.draining()) {
            thread.submit(1000 * MS, () -> holdPermit(thread, id, client, lease, hold, weeks, true, until));
            return;
        }
        long after =
                throughAWeek && !run.draining() ? random.nextLong(0, 20_000) * MS : Math.max(0, until - loop.now());
        thread.submit(after, () -> giveBack(thread, id, client, lease, hold, 18));
    }
}
