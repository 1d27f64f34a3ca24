package dev.dlock.sim;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The callers of a {@link Simulation} on the asynchronous API: each in turn takes a mutex, a multi-lock of two mutex
 * names, a read or write lock, a semaphore permit or a Redlock lock through {@code acquireAsync} with a wait of 0 to
 * 3 s (one wait in ten given up part way), holds it for up to a quarter of a lease or, one time in four, up to three
 * leases (the watchdog's), and gives it back with {@code releaseAsync}, after a short think between operations. Each
 * hold goes into the run's {@link HoldBook}, one per name. Not thread-safe: used by whichever thread has the turn.
 */
final class AsyncCallers {
    private static final long MS = 1_000_000;
    private static final long[] WAITS_MS = {0, 50, 500, 3000};

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final SplittableRandom random;
    private final List<LockClient> clients;
    private final List<LockClient> redlocks;
    private final Kind[] kinds;

    /**
     * @param run the run whose book, trace and counters the holds go to
     * @param config its config
     * @param loop its world
     * @param random the draws of these callers (the run's own)
     * @param clients the clients of the single server, one per client index
     * @param redlocks the Redlock clients, one per client index, or none
     * @param kinds the kinds of hold they take
     */
    AsyncCallers(
            Simulation run,
            SimConfig config,
            EventLoop loop,
            SplittableRandom random,
            List<LockClient> clients,
            List<LockClient> redlocks,
            Kind[] kinds) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.random = random;
        this.clients = clients;
        this.redlocks = redlocks;
        this.kinds = kinds;
    }

    /** Starts every caller of every client, each after a think of up to 50 ms. */
    void start() {
        for (int c = 0; c < config.clients(); c++) {
            for (int k = 0; k < config.callersPerClient(); k++) {
                int caller = c * config.callersPerClient() + k;
                loop.after(random.nextLong(0, 50 * MS), () -> next(caller));
            }
        }
    }

    /** The caller's next operation. */
    private void next(int caller) {
        if (run.draining()) {
            return;
        }
        if (run.weeks().pausing()) {
            run.weeks().defer(() -> next(caller));
            return;
        }
        LockClient client = clients.get(caller / config.callersPerClient());
        Kind kind = kinds[random.nextInt(kinds.length)];
        int n = config.namesPerKind();
        String name = switch (kind) {
            case MUTEX, MULTI -> "m" + random.nextInt(n);
            case READ, WRITE -> "rw" + random.nextInt(n);
            case PERMIT -> "p" + random.nextInt(n);
            case REDLOCK -> "r" + random.nextInt(n);
        };
        String other = "m" + ((name.charAt(1) - '0' + 1 + random.nextInt(n - 1)) % n); // a multi-lock's second name
        Duration wait = Duration.ofMillis(WAITS_MS[random.nextInt(WAITS_MS.length)]);
        CompletableFuture<Lease> acquire = switch (kind) {
            case MUTEX -> client.lock(name).acquireAsync(wait);
            case MULTI -> client.multiLock(name, other).acquireAsync(wait);
            case READ -> client.readWriteLock(name).readLock().acquireAsync(wait);
            case WRITE -> client.readWriteLock(name).writeLock().acquireAsync(wait);
            case PERMIT -> client.semaphore(name, config.permits()).acquireAsync(1, wait);
            case REDLOCK ->
                redlocks.get(caller / config.callersPerClient()).lock(name).acquireAsync(wait);
        };
        if (random.nextInt(10) == 0) { // gives the wait up part way
            CompletableFuture<Lease> a = acquire;
            loop.after(random.nextLong(0, 200 * MS), () -> a.cancel(true));
        }
        String label = kind == Kind.MULTI ? name + "+" + other : name;
        long started = loop.now();
        run.acquireStarted();
        acquire.whenComplete((lease, error) -> {
            run.acquireEnded(caller, kind + " acquire of " + label, started, wait.toNanos());
            taken(caller, kind, label, lease, error);
        });
    }

    private void taken(int caller, Kind kind, String label, Lease lease, Throwable error) {
        if (error != null) {
            Throwable cause =
                    error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            run.observe(caller, 1, cause instanceof CancellationException ? 2 : 3);
            if (!(cause instanceof CancellationException) && !(cause instanceof LockException)) {
                // a LockConnectionException is the network's (a stall past the command timeout); anything else is not
                run.violation("caller " + caller + "'s acquire of " + label + " failed: " + cause);
            }
            loop.after(random.nextLong(0, 100 * MS), () -> next(caller));
            return;
        }
        if (lease == null) {
            run.observe(caller, 4);
            loop.after(random.nextLong(0, 100 * MS), () -> next(caller));
            return;
        }
        run.leaseTaken();
        long half = config.leaseMillis() * 500_000L;
        if (lease.remaining().toNanos() < half - MS) {
            run.violation("caller " + caller + "'s " + kind + " acquire of " + label + " returned a hold with "
                    + lease.remaining().toMillis() + " ms left of its " + config.leaseMillis() + " ms lease");
        }
        List<Hold> taken = new ArrayList<>();
        Kind each = kind == Kind.MULTI ? Kind.MUTEX : kind;
        for (Map.Entry<String, Long> part : lease.fencingTokens().entrySet()) {
            run.observe(caller, 5, part.getValue());
            Hold hold = new Hold(each, part.getKey(), part.getValue(), HoldBook.View.of(lease), caller);
            String wrong = run.inBook(hold);
            if (wrong != null) {
                run.violation(wrong);
            }
            taken.add(hold);
        }
        long holdFor = random.nextInt(4) == 0
                ? random.nextLong(0, 3 * config.leaseMillis()) // past the lease: the watchdog's
                : random.nextLong(0, config.leaseMillis() / 4);
        loop.after(holdFor * MS, () -> release(caller, lease, taken));
    }

    private void release(int caller, Lease lease, List<Hold> taken) {
        for (Hold h : taken) {
            run.book().released(h);
        }
        lease.releaseAsync().whenComplete((v, error) -> {
            run.observe(caller, 6, error == null ? 0 : 1);
            // a lease lost meanwhile reports its loss here: allowed, as the network may delay renewals past a lease
            loop.after(random.nextLong(0, 100 * MS), () -> next(caller));
        });
    }
}
