package dev.dlock.sim;

import dev.dlock.LockClient;
import dev.dlock.sim.HoldBook.Hold;
import dev.dlock.sim.HoldBook.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * One seeded run of whole dlock clients, as shipped, on one thread: several clients on one {@link SimRedis}, each on
 * its own drifting clock and its own delayed network, each with callers that take and give back mutexes, read and write
 * locks and semaphore permits through the asynchronous API, give up waits, and hold past several leases, and callers
 * on the blocking API, each on a logical thread that takes turns with the loop ({@link BlockingCallers},
 * {@link CallerThreads}). After every
 * step (one delivered command, reply or message, or one fired timer) the holds are checked against what may overlap,
 * each by its holder's own view ({@code Lease.isValid()}); each new hold's fencing token against those it excludes.
 * The network also loses replies (the command ran; the client times out) and pub/sub messages, and drops whole
 * connections (what is in flight on them lost; the transports reconnect); the servers crash and come back without
 * their data, the single server fails over to its lagging replica ({@link SimReplica}, {@link Promotions}; one client
 * waits for replica acknowledgements), and an operator force-releases names ({@link HoldBook} exempts exactly the
 * holds these take away and dlock does not promise to keep, until their holders must have learned it). The first violation
 * ends the run; without one, the run ends quiescent: faults healed, callers gone, clients closed, and nothing left on
 * the server but what outlives a lock by design ({@link Leftovers}). A run is a function of its {@link SimConfig}: its
 * trace hash repeats with the seed.
 *
 * <p>Not thread-safe: a run is one thread's at a time (the loop's, or a caller thread's that has the turn); its caller
 * threads are stopped when it ends.
 */
public final class Simulation {
    private static final long MS = 1_000_000;
    private static final String CONTROL = "dlock.unsafe.control";
    private static final long EPOCH_MS = 1_767_225_600_000L; // 2026-01-01, the simulated server's clock at start
    private static final Duration COMMAND_TIMEOUT = SimClients.COMMAND_TIMEOUT;
    /**
     * How late past its wait an acquire may complete: the command in flight at its deadline, the last try that leaves
     * the queue, and a release of a hold it took meanwhile, each bounded by the command timeout (and, for a client with
     * {@code replicaAcks}, its {@code WAIT}'s); and a little for the callback executor.
     */
    private static final long ACQUIRE_SLACK =
            3 * (COMMAND_TIMEOUT.toNanos() + SimClients.REPLICA_ACK_TIMEOUT.toNanos()) + 200 * MS;
    /**
     * How long after every caller gave its holds back no mutex or Redlock lock may be held any more: a release is sent
     * within the command timeout, arrives within a stall of two leases and a delay spike, and a hold whose release was
     * lost expires within its lease of the last renewal; with room to spare.
     */
    private static final long UNOWNED_AFTER = 10_000 * MS;

    /**
     * What a run saw.
     *
     * @param config what it ran
     * @param steps the steps run
     * @param simulatedNanos the simulated time it covered
     * @param holds the holds taken
     * @param violation the first violation, or null
     * @param traceHash a hash of everything the callers observed, step by step
     * @param lostReplies the replies the network lost (each an outcome unknown to its client)
     * @param lostMessages the pub/sub messages the network lost
     * @param drops the connections the network dropped
     * @param maxLateMillis how far past its wait the latest acquire completed
     * @param serverWipes the crashes of the single server that lost its data
     * @param forceReleases the operator's force-releases of the single server's names that ran there
     * @param redlockForceReleases the operator's force-releases of Redlock names (each over every master)
     * @param promotions the failovers of the single server to its replica
     */
    public record Result(
            SimConfig config,
            long steps,
            long simulatedNanos,
            long holds,
            String violation,
            long traceHash,
            long lostReplies,
            long lostMessages,
            long drops,
            long maxLateMillis,
            long serverWipes,
            long forceReleases,
            long redlockForceReleases,
            long promotions) {
        /**
         * One line about this run: its seed, steps, simulated time, holds, faults, trace hash and speed.
         *
         * @param wallNanos how long the run took on the host's clock
         * @return the line
         */
        public String describe(long wallNanos) {
            return String.format(
                    Locale.ROOT,
                    "seed %d%s: %,d steps, %.0f s simulated, %,d holds, %,d replies and %,d messages lost, %,d drops,"
                            + " %d server wipes, %d force-releases and %d of Redlock names, %d promotions, latest acquire %,d ms past its wait,"
                            + " trace %016x, %,.0f steps/s",
                    config.seed(),
                    config.control().isEmpty() ? "" : " (" + config.control() + ")",
                    steps,
                    simulatedNanos / 1e9,
                    holds,
                    lostReplies,
                    lostMessages,
                    drops,
                    serverWipes,
                    forceReleases,
                    redlockForceReleases,
                    promotions,
                    maxLateMillis,
                    traceHash,
                    steps / Math.max(1e-9, wallNanos / 1e9));
        }

        /**
         * This run as {@code capped} names it: the same config with its steps cut to the step that failed, which
         * replays it step for step (a run ends at its first violation).
         *
         * @param capped this run's config with fewer steps, no fewer than it ran
         * @return the result, naming {@code capped}
         * @throws IllegalArgumentException if {@code capped} is another config, or cuts the run short
         */
        public Result replayedAs(SimConfig capped) {
            if (!capped.with(x -> x.steps = config.steps()).equals(config) || capped.steps() < steps) {
                throw new IllegalArgumentException(capped.compact() + " does not replay " + config.compact());
            }
            return new Result(
                    capped,
                    steps,
                    simulatedNanos,
                    holds,
                    violation,
                    traceHash,
                    lostReplies,
                    lostMessages,
                    drops,
                    maxLateMillis,
                    serverWipes,
                    forceReleases,
                    redlockForceReleases,
                    promotions);
        }

        /**
         * The one-line command that replays this run.
         *
         * @return the command
         */
        public String replay() {
            boolean defaults =
                    config.equals(SimConfig.of(config.seed(), config.steps()).withControl(config.control()));
            return "mvn -B -o verify -pl dlock-sim -Dtest=SimulationTest#replay*"
                    + (defaults
                            ? " -Dsim.seed=" + config.seed() + " -Dsim.steps=" + config.steps()
                                    + (config.control().isEmpty() ? "" : " -Dsim.control=" + config.control())
                            : " -Dsim.config=" + config.compact())
                    + " -Dsurefire.failIfNoSpecifiedTests=false";
        }
    }

    private final SimConfig config;
    private final SplittableRandom random;
    private final EventLoop loop = new EventLoop();
    private final SimRedis server = new SimRedis(() -> EPOCH_MS + loop.now() / MS);
    private final List<LockClient> clients = new ArrayList<>();
    private final List<SimRedis> nodes = new ArrayList<>(); // Redlock's masters
    private final List<LockClient> redlocks = new ArrayList<>(); // one per client, over the nodes
    private final Kind[] kinds;
    private final SimClients builder;
    private final CallerThreads threads = new CallerThreads(loop);
    private BlockingCallers blocking;
    private boolean draining; // the run's steps are done: callers start nothing new, faults heal
    private int acquiring; // acquires started and not completed
    private long maxLate; // how far past its wait the latest acquire completed
    private final HoldBook book;
    private final RedlockFences fences;
    private long holds;
    private final SingleServerFaults faults;
    private final RedlockForces redlockForces;
    private final SimReplica replica;
    private final Promotions promotions;
    private long hash = 0xcbf29ce484222325L;
    private String violation;
    private final SuspendedWeeks week;
    private final Map<String, Long> tally = new TreeMap<>(); // what the blocking callers did

    private Simulation(SimConfig config) {
        this.config = config;
        this.random = new SplittableRandom(config.seed());
        for (int n = 0; n < config.redlockNodes(); n++) {
            nodes.add(new SimRedis(() -> EPOCH_MS + loop.now() / MS));
        }
        this.book =
                new HoldBook(server, config.permits(), nodes, config.leaseMillis(), () -> EPOCH_MS + loop.now() / MS);
        this.fences = new RedlockFences(loop, nodes, SimClients.REDLOCK_TIMEOUT.toNanos());
        this.builder = new SimClients(loop, config, () -> draining, this::observe, threads);
        this.builder.listenSingle(new dev.dlock.LockListener() {
            @Override
            public void holdLost(String lockName, dev.dlock.LockLostException loss) {
                blocking.lost(lockName, loss.fencingToken());
            }

            @Override
            public void holdExpired(String lockName, dev.dlock.LockLostException end) {
                blocking.lost(lockName, end.fencingToken());
            }
        });
        this.week = new SuspendedWeeks(loop, book, random, () -> acquiring, () -> draining, gap -> observe(-3, gap));
        this.faults = new SingleServerFaults(this, config, loop, server, clients, builder, threads, EPOCH_MS);
        this.builder.tapSingle(faults.tap());
        this.redlockForces = new RedlockForces(this, config, loop, redlocks, threads, EPOCH_MS);
        this.builder.tapRedlock(redlockForces.ran());
        // their own sources, from the seed: the draws of the rest of the world are as they were without them
        this.replica =
                new SimReplica(loop, server, new SplittableRandom(config.seed() * 31 + 17), config.leaseMillis());
        this.promotions = new Promotions(this, config, loop, server, replica, builder, faults, EPOCH_MS);
        this.book.ackedCallers(caller -> acked(clientOf(caller)));
        this.kinds = config.redlockNodes() > 0
                ? Kind.values()
                : java.util.Arrays.stream(Kind.values())
                        .filter(k -> k != Kind.REDLOCK)
                        .toArray(Kind[]::new);
    }

    /**
     * Runs one simulation.
     *
     * @param config what to run
     * @return what it saw
     */
    public static Result run(SimConfig config) {
        return run(config, new TreeMap<>());
    }

    /**
     * Runs one simulation, and tells {@code tally} what its blocking callers did: the holds they put in the book, by
     * kind ({@code "book REDLOCK"}: one per name), and their {@code lockInterruptibly()} outcomes; and how many holds
     * the book exempted, believed valid after the server lost them ({@code "exempt after force-release"}, {@code
     * "exempt after restart without data"}).
     *
     * @param config what to run
     * @param tally where the counts go
     * @return what it saw
     */
    static Result run(SimConfig config, Map<String, Long> tally) {
        Simulation run = new Simulation(config);
        try {
            return run.go();
        } finally {
            run.threads.close(); // no caller thread outlives its run
            tally.putAll(run.tally);
            run.book.exemptions().forEach((cause, n) -> tally.put("exempt after " + cause, n));
            tally.put("promotions", run.promotions.promotions());
            tally.put("acked holds across a promotion", run.promotions.ackedSurvivors());
            tally.put("replica hold-backs", run.replica.holdBacks());
            tally.put("Redlock force-releases", run.redlockForces.calls());
            tally.put("Redlock force-deleted keys", run.redlockForces.deleted());
        }
    }

    private Result go() {
        String before = System.getProperty(CONTROL);
        System.setProperty(CONTROL, config.control()); // read by each client as it is built
        try {
            for (int c = 0; c < config.clients(); c++) {
                clients.add(builder.single(c, server, random.split(), acked(c)));
                if (config.redlockNodes() > 0) {
                    redlocks.add(builder.redlock(c, nodes, random.split(), fences));
                }
            }
        } finally {
            if (before == null) {
                System.clearProperty(CONTROL);
            } else {
                System.setProperty(CONTROL, before);
            }
        }
        new AsyncCallers(this, config, loop, random, clients, redlocks, kinds).start();
        Restarts restarts = new Restarts(this, config, loop, server, nodes, builder);
        restarts.withData(random.split());
        restarts.redlockWipes(random.split());
        faults.serverWipes(random.split());
        faults.forceReleases(random.split());
        promotions.start(new SplittableRandom(config.seed() * 31 + 19));
        redlockForces.start(new SplittableRandom(config.seed() * 31 + 23));
        blocking = new BlockingCallers(this, config, loop, random.split());
        for (int c = 0; c < config.clients(); c++) {
            for (int k = 0; k < config.threadCallersPerClient(); k++) {
                int caller = config.clients() * config.callersPerClient() + c * config.threadCallersPerClient() + k;
                blocking.start(
                        threads.start("sim-caller-" + caller),
                        caller,
                        clients.get(c),
                        redlocks.isEmpty() ? null : redlocks.get(c));
            }
        }
        while (violation == null && loop.steps() < config.steps() && loop.step()) {
            check();
        }
        long steps = loop.steps();
        long simulated = loop.now();
        if (violation == null) {
            drain();
        }
        long replies =
                builder.networks().stream().mapToLong(LoopNetwork::lostReplies).sum();
        long messages =
                builder.networks().stream().mapToLong(LoopNetwork::lostMessages).sum();
        long drops = builder.networks().stream().mapToLong(LoopNetwork::drops).sum();
        return new Result(
                config,
                steps,
                simulated,
                holds,
                violation,
                hash,
                replies,
                messages,
                drops,
                maxLate / MS,
                faults.wipes(),
                faults.forced(),
                redlockForces.calls(),
                promotions.promotions());
    }

    /** Whether client {@code c} of the single server is built with {@code replicaAcks(1)}: the last ones. */
    private boolean acked(int c) {
        return c >= config.clients() - config.ackClients();
    }

    /** The client of the single server whose caller {@code caller} is (asynchronous, then blocking callers). */
    private int clientOf(int caller) {
        int async = config.clients() * config.callersPerClient();
        return caller < async
                ? caller / config.callersPerClient()
                : (caller - async) / Math.max(1, config.threadCallersPerClient());
    }

    /**
     * Quiescence: the faults heal, the callers start nothing new and give back what they hold, the clients close.
     * Every acquire must have completed, every close too, and the server must hold nothing of theirs but the keys
     * that outlive a lock by design ({@link Leftovers}).
     */
    private void drain() {
        draining = true;
        week.resume();
        for (LoopNetwork network : builder.networks()) {
            network.lose(0, 0);
        }
        long bound = 3 * config.leaseMillis() * MS + 3000 * MS + ACQUIRE_SLACK; // the longest hold, wait and slack
        loop.runUntil(
                () -> {
                    check(); // the invariants hold while the callers give back what they hold, too
                    return violation != null || (acquiring == 0 && book.isEmpty());
                },
                bound);
        if (violation != null) {
            return;
        }
        if (acquiring > 0) {
            violation("quiescence: " + acquiring + " acquires still pending " + bound / MS + " ms after the last step");
            return;
        }
        // Every hold is given back: once the releases on their way have landed (a command goes out within its timeout
        // and arrives within a stall and a spike) and what they missed has expired, no mutex or Redlock lock is held.
        long end = loop.now() + UNOWNED_AFTER;
        loop.runUntil(
                () -> {
                    check();
                    return violation != null;
                },
                UNOWNED_AFTER);
        if (violation != null) {
            return;
        }
        loop.runFor(Math.max(0, end - loop.now()));
        String kept = UnownedLocks.held(server, nodes);
        if (kept != null) {
            violation("quiescence: " + kept);
            return;
        }
        List<CompletableFuture<Void>> closes = new ArrayList<>();
        for (LockClient client : clients) {
            closes.add(client.closeAsync());
        }
        for (LockClient client : redlocks) {
            closes.add(client.closeAsync());
        }
        CompletableFuture<Void> closed = CompletableFuture.allOf(closes.toArray(new CompletableFuture<?>[0]));
        if (!loop.runUntil(closed::isDone, 2 * COMMAND_TIMEOUT.toNanos() + 1000 * MS)) {
            violation("quiescence: the clients' closeAsync did not complete");
            return;
        }
        loop.runFor(6_000 * MS); // queue entries live at most 5 s, leases 1 s: what is left now stays
        String left = Leftovers.unexpected(
                server, BlockingCallers.LONGEST_LEASE_MS, blocking.unreleased(), blocking.unknownOutcomes());
        for (int n = 0; left == null && n < nodes.size(); n++) {
            left = Leftovers.unexpected(nodes.get(n));
            left = left == null ? null : "Redlock node " + n + ": " + left;
        }
        if (left != null) {
            violation("quiescence: " + left);
        }
    }

    void observe(long... values) {
        for (long v : values) {
            hash = (hash ^ v) * 0x100000001b3L;
        }
        hash = (hash ^ loop.now()) * 0x100000001b3L;
    }

    /** Checks every name's holds that their holders believe valid, and that no caller thread failed. */
    private void check() {
        if (threads.failure() != null) {
            violation(threads.failure());
        }
        String wrong = book.check(EPOCH_MS + loop.now() / MS);
        if (wrong != null) {
            violation(wrong);
        }
    }

    void violation(String what) {
        if (violation == null) {
            violation = "step " + loop.steps() + ", " + loop.now() / MS + " ms: " + what;
        }
    }

    // ---- for the callers ({@link AsyncCallers}, {@link BlockingCallers}) --------------------------------

    /** Whether the run's steps are done: callers start nothing new. */
    boolean draining() {
        return draining;
    }

    /** The run's holds. */
    HoldBook book() {
        return book;
    }

    /** An acquire began: quiescence waits for it. */
    void acquireStarted() {
        acquiring++;
    }

    /**
     * An acquire of caller {@code caller} that began at {@code started} (world time) with a wait of {@code waitNanos}
     * (negative: no end) returned: it must not have been later than the slack past its wait.
     */
    void acquireEnded(int caller, String what, long started, long waitNanos) {
        acquiring--;
        if (waitNanos < 0) {
            return;
        }
        long late = loop.now() - started - waitNanos;
        maxLate = Math.max(maxLate, late);
        if (late > ACQUIRE_SLACK) {
            violation("caller " + caller + "'s " + what + " with a wait of " + waitNanos / MS + " ms returned "
                    + late / MS + " ms past it");
        }
    }

    /**
     * A blocking caller's new hold of one name: counted, checked for at least half its lease left, and put in the book
     * (which checks its fencing token; a Redlock hold's then goes to {@link RedlockFences}, as an asynchronous caller's).
     */
    void held(Hold hold, Duration remaining, long leaseMillis, String what) {
        holds++;
        observe(hold.caller(), 5, hold.token());
        if (remaining.toNanos() < leaseMillis * 500_000L - MS) {
            violation(what + " returned a hold with " + remaining.toMillis() + " ms left of its " + leaseMillis
                    + " ms lease");
        }
        tally.merge("book " + hold.kind(), 1L, Long::sum);
        String wrong = inBook(hold);
        if (wrong != null) {
            violation(wrong);
        }
    }

    /** An asynchronous caller's acquire returned a lease (of one name or several): counted. */
    void leaseTaken() {
        holds++;
    }

    /**
     * Puts one name's new hold in the book, which checks its fencing token; a Redlock hold's then goes to {@link
     * RedlockFences}.
     *
     * @return the violation, or null
     */
    String inBook(Hold hold) {
        String wrong = book.taken(hold);
        return wrong == null && hold.kind() == Kind.REDLOCK ? redlockTaken(hold) : wrong;
    }

    /**
     * A Redlock hold just put in the book: its token checked by {@link RedlockFences}, and its attempt's owner id, which
     * the masters' lock keys hold, told to the book (a force-release removes a hold's records by it).
     *
     * @return the violation, or null
     */
    private String redlockTaken(Hold hold) {
        RedlockFences.Taken taken = fences.taken(hold.name(), hold.token(), hold.caller());
        if (taken.owner() != null) {
            book.redlockOwner(hold, taken.owner());
        }
        return taken.violation();
    }

    /** Counts one more of what a blocking caller did, for {@link #run(SimConfig, Map)}'s tally. */
    void count(String what) {
        tally.merge(what, 1L, Long::sum);
    }

    /** The run's suspended weeks, which its blocking callers ask for and wait on. */
    SuspendedWeeks weeks() {
        return week;
    }
}
