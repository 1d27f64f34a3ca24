package dev.dlock.sim;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One seeded run of whole dlock clients, as shipped, on one thread: several clients on one {@link SimRedis}, each on
 * its own drifting clock and its own delayed network, each with callers that take and give back mutexes, read and write
 * locks and semaphore permits through the asynchronous API, give up waits, and hold past several leases. After every
 * step (one delivered command, reply or message, or one fired timer) the holds are checked against what may overlap,
 * each by its holder's own view ({@code Lease.isValid()}); each new hold's fencing token against those it excludes.
 * The first violation ends the run. A run is a function of its {@link Config}: its trace hash repeats with the seed.
 *
 * <p>Not thread-safe: a run is one thread's.
 */
public final class Simulation {
    private static final long MS = 1_000_000;
    private static final String CONTROL = "dlock.unsafe.control";
    private static final long EPOCH_MS = 1_767_225_600_000L; // 2026-01-01, the simulated server's clock at start

    /**
     * What one run does.
     *
     * @param seed the seed every random choice comes from
     * @param steps how many steps to run
     * @param clients how many clients
     * @param callersPerClient how many callers each client has
     * @param namesPerKind how many lock names of each kind the callers share
     * @param permits the semaphores' permits
     * @param leaseMillis the clients' lease time
     * @param maxDelayMillis the longest ordinary one-way network delay
     * @param spikeDelayMillis the longest delay of a rare spike, past a lease
     * @param control the negative control its clients run with ({@code dlock.unsafe.control}), or empty
     */
    public record Config(
            long seed,
            long steps,
            int clients,
            int callersPerClient,
            int namesPerKind,
            int permits,
            long leaseMillis,
            long maxDelayMillis,
            long spikeDelayMillis,
            String control) {
        /**
         * The defaults for a seed: 3 clients of 4 callers over 3 names of each kind, 3 permits, 1 s leases, delays up
         * to 20 ms with spikes up to 1.5 s.
         *
         * @param seed the seed
         * @param steps the steps
         * @return the config
         */
        public static Config of(long seed, long steps) {
            return new Config(seed, steps, 3, 4, 3, 3, 1000, 20, 1500, "");
        }

        /**
         * This config with a negative control on.
         *
         * @param name the control's name, such as {@code stale-grant}
         * @return the config
         */
        public Config withControl(String name) {
            return new Config(
                    seed,
                    steps,
                    clients,
                    callersPerClient,
                    namesPerKind,
                    permits,
                    leaseMillis,
                    maxDelayMillis,
                    spikeDelayMillis,
                    name);
        }
    }

    /**
     * What a run saw.
     *
     * @param config what it ran
     * @param steps the steps run
     * @param simulatedNanos the simulated time it covered
     * @param holds the holds taken
     * @param violation the first violation, or null
     * @param traceHash a hash of everything the callers observed, step by step
     */
    public record Result(Config config, long steps, long simulatedNanos, long holds, String violation, long traceHash) {
        /**
         * The one-line command that replays this run.
         *
         * @return the command
         */
        public String replay() {
            return "mvn -B -o verify -pl dlock-sim -Dtest=SimulationTest#replay -Dsim.seed=" + config.seed()
                    + " -Dsim.steps=" + config.steps()
                    + (config.control().isEmpty() ? "" : " -Dsim.control=" + config.control())
                    + " -Dsurefire.failIfNoSpecifiedTests=false";
        }
    }

    /** The kinds of hold the callers take. */
    enum Kind {
        MUTEX,
        MULTI,
        READ,
        WRITE,
        PERMIT;

        boolean shared() {
            return this == READ || this == PERMIT;
        }
    }

    /** One hold of one name, as its caller has it (a multi-lock's lease is one per name, of kind MUTEX). */
    private record Hold(Kind kind, String name, long token, Lease lease, int caller) {}

    private final Config config;
    private final SplittableRandom random;
    private final EventLoop loop = new EventLoop();
    private final SimRedis server = new SimRedis(() -> EPOCH_MS + loop.now() / MS);
    private final List<LockClient> clients = new ArrayList<>();
    private final Map<String, List<Hold>> held = new LinkedHashMap<>();
    private final Map<String, Long> maxToken = new HashMap<>(); // of any valid hold of the name
    private final Map<String, Long> maxExclusiveToken = new HashMap<>();
    private long holds;
    private long hash = 0xcbf29ce484222325L;
    private String violation;

    private Simulation(Config config) {
        this.config = config;
        this.random = new SplittableRandom(config.seed());
    }

    /**
     * Runs one simulation.
     *
     * @param config what to run
     * @return what it saw
     */
    public static Result run(Config config) {
        return new Simulation(config).go();
    }

    private Result go() {
        String before = System.getProperty(CONTROL);
        System.setProperty(CONTROL, config.control()); // read by each client as it is built
        try {
            for (int c = 0; c < config.clients(); c++) {
                clients.add(newClient(c));
            }
        } finally {
            if (before == null) {
                System.clearProperty(CONTROL);
            } else {
                System.setProperty(CONTROL, before);
            }
        }
        for (int c = 0; c < config.clients(); c++) {
            for (int k = 0; k < config.callersPerClient(); k++) {
                int caller = c * config.callersPerClient() + k;
                LockClient client = clients.get(c);
                loop.after(random.nextLong(0, 50 * MS), () -> next(caller, client));
            }
        }
        while (violation == null && loop.steps() < config.steps() && loop.step()) {
            check();
        }
        return new Result(config, loop.steps(), loop.now(), holds, violation, hash);
    }

    private LockClient newClient(int index) {
        SplittableRandom own = random.split();
        long max = config.maxDelayMillis() * MS;
        long spike = config.spikeDelayMillis() * MS;
        LoopNetwork network = new LoopNetwork(
                loop,
                own.split(),
                new LoopNetwork.Delays(50_000, max, 0.002, spike),
                new LoopNetwork.Delays(50_000, max, 0.1, spike)); // grants late more often than replies
        SimTransport transport = new SimTransport(server, network, false);
        stalls(network, own.split());
        String id = String.format(Locale.ROOT, "sim%05d-%08x", index, own.nextInt());
        SimClientRuntime runtime =
                new SimClientRuntime(loop, own.nextLong(0, 1_000_000 * MS), own.nextDouble(-50, 50), id);
        return LockClient.builder()
                .redisUri("redis://sim")
                .transport(new TransportFactory() {
                    @Override
                    public Transport connect(TransportConfig c) {
                        return transport;
                    }
                })
                .leaseTime(Duration.ofMillis(config.leaseMillis()))
                .commandTimeout(Duration.ofSeconds(2))
                .runtime(runtime)
                .build();
    }

    /**
     * Now and then, this client's network stalls for up to two leases, both links at once (a pause, a partition that
     * heals) or the pub/sub link longer than the command link (its messages lag behind the replies).
     */
    private void stalls(LoopNetwork network, SplittableRandom own) {
        long gap = own.nextLong(1, 20_000) * MS;
        loop.after(gap, () -> {
            long stall = own.nextLong(0, 2 * config.leaseMillis()) * MS;
            long lag = own.nextBoolean() ? 0 : own.nextLong(0, config.leaseMillis()) * MS;
            network.stall(SimNetwork.Link.COMMANDS, stall);
            network.stall(SimNetwork.Link.PUBSUB, stall + lag);
            observe(-1, stall, lag);
            stalls(network, own);
        });
    }

    private void observe(long... values) {
        for (long v : values) {
            hash = (hash ^ v) * 0x100000001b3L;
        }
        hash = (hash ^ loop.now()) * 0x100000001b3L;
    }

    /** The caller's next operation, after a short think. */
    private void next(int caller, LockClient client) {
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        int n = config.namesPerKind();
        String name = switch (kind) {
            case MUTEX, MULTI -> "m" + random.nextInt(n);
            case READ, WRITE -> "rw" + random.nextInt(n);
            case PERMIT -> "p" + random.nextInt(n);
        };
        String other = "m" + ((name.charAt(1) - '0' + 1 + random.nextInt(n - 1)) % n); // a multi-lock's second name
        long[] waits = {0, 50, 500, 3000};
        Duration wait = Duration.ofMillis(waits[random.nextInt(waits.length)]);
        CompletableFuture<Lease> acquire = switch (kind) {
            case MUTEX -> client.lock(name).acquireAsync(wait);
            case MULTI -> client.multiLock(name, other).acquireAsync(wait);
            case READ -> client.readWriteLock(name).readLock().acquireAsync(wait);
            case WRITE -> client.readWriteLock(name).writeLock().acquireAsync(wait);
            case PERMIT -> client.semaphore(name, config.permits()).acquireAsync(1, wait);
        };
        if (random.nextInt(10) == 0) { // gives the wait up part way
            CompletableFuture<Lease> a = acquire;
            loop.after(random.nextLong(0, 200 * MS), () -> a.cancel(true));
        }
        String label = kind == Kind.MULTI ? name + "+" + other : name;
        acquire.whenComplete((lease, error) -> taken(caller, client, kind, label, lease, error));
    }

    private void taken(int caller, LockClient client, Kind kind, String label, Lease lease, Throwable error) {
        if (error != null) {
            Throwable cause =
                    error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            observe(caller, 1, cause instanceof CancellationException ? 2 : 3);
            if (!(cause instanceof CancellationException) && !(cause instanceof LockException)) {
                // a LockConnectionException is the network's (a stall past the command timeout); anything else is not
                violation("caller " + caller + "'s acquire of " + label + " failed: " + cause);
            }
            loop.after(random.nextLong(0, 100 * MS), () -> next(caller, client));
            return;
        }
        if (lease == null) {
            observe(caller, 4);
            loop.after(random.nextLong(0, 100 * MS), () -> next(caller, client));
            return;
        }
        holds++;
        long half = config.leaseMillis() * 500_000L;
        if (lease.remaining().toNanos() < half - MS) {
            violation("caller " + caller + "'s " + kind + " acquire of " + label + " returned a hold with "
                    + lease.remaining().toMillis() + " ms left of its " + config.leaseMillis() + " ms lease");
        }
        List<Hold> taken = new ArrayList<>();
        Kind each = kind == Kind.MULTI ? Kind.MUTEX : kind;
        for (Map.Entry<String, Long> part : lease.fencingTokens().entrySet()) {
            String name = part.getKey();
            long token = part.getValue();
            observe(caller, 5, token);
            if (lease.isValid()) {
                long before =
                        each.shared() ? maxExclusiveToken.getOrDefault(name, 0L) : maxToken.getOrDefault(name, 0L);
                if (each != Kind.PERMIT && token <= before) {
                    violation("a " + kind + " hold of " + name + " took token " + token
                            + " after a conflicting hold had " + before);
                }
                maxToken.merge(name, token, Math::max);
                if (!each.shared()) {
                    maxExclusiveToken.merge(name, token, Math::max);
                }
            }
            Hold hold = new Hold(each, name, token, lease, caller);
            held.computeIfAbsent(name, k -> new ArrayList<>()).add(hold);
            taken.add(hold);
        }
        long holdFor = random.nextInt(4) == 0
                ? random.nextLong(0, 3 * config.leaseMillis()) // past the lease: the watchdog's
                : random.nextLong(0, config.leaseMillis() / 4);
        loop.after(holdFor * MS, () -> release(caller, client, lease, taken));
    }

    private void release(int caller, LockClient client, Lease lease, List<Hold> taken) {
        for (Hold h : taken) {
            held.get(h.name()).remove(h);
        }
        lease.releaseAsync().whenComplete((v, error) -> {
            observe(caller, 6, error == null ? 0 : 1);
            // a lease lost meanwhile reports its loss here: allowed, as the network may delay renewals past a lease
            loop.after(random.nextLong(0, 100 * MS), () -> next(caller, client));
        });
    }

    /** Checks every name's holds that their holders believe valid. */
    private void check() {
        for (Map.Entry<String, List<Hold>> e : held.entrySet()) {
            int valid = 0;
            int exclusive = 0;
            for (Hold h : e.getValue()) {
                if (h.lease().isValid()) {
                    valid++;
                    if (!h.kind().shared()) {
                        exclusive++;
                    }
                    String server = serverSide(h);
                    if (server != null) {
                        violation("caller " + h.caller() + " believes its " + h.kind() + " hold of " + h.name()
                                + " (token " + h.token() + ") valid for "
                                + h.lease().remaining().toMillis() + " ms more, but " + server);
                        return;
                    }
                }
            }
            if (valid == 0) {
                continue;
            }
            Kind kind = e.getValue().get(0).kind();
            if (kind == Kind.PERMIT ? valid > config.permits() : exclusive > 0 && valid > 1) {
                violation(valid + " valid holds of " + e.getKey() + " at once (" + exclusive + " exclusive): "
                        + e.getValue());
                return;
            }
        }
    }

    /** Null if the server holds {@code h} for its holder, or what the server has instead. */
    private String serverSide(Hold h) {
        long token = h.token();
        if (h.kind() == Kind.MUTEX) {
            Object held = server.call("HGET", "dlock:{" + h.name() + "}", "token");
            return held != null && Long.parseLong(held.toString()) == token
                    ? null
                    : "the server's lock has token " + held;
        }
        Object all = server.call("HGETALL", "dlock:{" + h.name() + "}:holds");
        List<?> fields = all instanceof List<?> l ? l : List.of();
        long nowMs = EPOCH_MS + loop.now() / MS;
        for (int i = 1; i < fields.size(); i += 2) {
            String[] entry = fields.get(i).toString().split(" ");
            if (entry.length >= 3 && Long.parseLong(entry[1]) == token) {
                return Long.parseLong(entry[2]) > nowMs
                        ? null
                        : "the server's holder entry expired at " + entry[2] + " (now " + nowMs + ")";
            }
        }
        return "the server has no holder with its token among " + fields;
    }

    private void violation(String what) {
        if (violation == null) {
            violation = "step " + loop.steps() + ", " + loop.now() / MS + " ms: " + what;
        }
    }
}
