package dev.dlock.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What one {@link Simulation} run does: its seed and steps, its world (clients, callers, names, Redlock masters) and
 * its faults (delays, losses), and the negative control it runs with. Immutable.
 *
 * @param seed the seed every random choice comes from
 * @param steps how many steps to run
 * @param clients how many clients
 * @param callersPerClient how many callers each client has on the asynchronous API
 * @param threadCallersPerClient how many callers each client of the single server has on the blocking API, each on a
 *     logical thread of its own ({@link CallerThreads})
 * @param namesPerKind how many lock names of each kind the callers share
 * @param permits the semaphores' permits
 * @param redlockNodes how many simulated masters each client's Redlock client spans (0: no Redlock)
 * @param leaseMillis the clients' lease time
 * @param maxDelayMillis the longest ordinary one-way network delay
 * @param spikeDelayMillis the longest delay of a rare spike, past a lease
 * @param replyLoss the chance that a command's reply never comes (the command ran; the client times out)
 * @param messageLoss the chance that a pub/sub message (a grant, a wake-up) never comes
 * @param dropEverySeconds the mean simulated time between two drops of one connection of a client (each link of each
 *     network on its own; the server then out of reach for up to 3 s), or 0 for none
 * @param wipeEverySeconds the mean simulated time between two crashes of a Redlock master that lose its data (each
 *     master down for at least a lease plus the drift allowance, as docs/redlock.md's delayed-restart rule requires,
 *     then back empty), or 0 for none
 * @param serverWipeEverySeconds the mean simulated time between two crashes of the single server that lose its data
 *     (down for 50 ms to 3 s, then back empty: every hold it had is gone, by design), or 0 for none
 * @param forceEverySeconds the mean simulated time between two {@code LockAdmin.forceUnlock} calls of an operator on
 *     a name of the single server, or 0 for none
 * @param redlockForceEverySeconds the mean simulated time between two {@code LockAdmin.forceUnlock} calls of an
 *     operator on a Redlock name, through a Redlock client's admin (the force script on every master), or 0 for none
 * @param fenceCut the chance that a Redlock client's connection to a master drops right after it sent a fencing
 *     write-back ({@code redlock-fence.lua}), so that the write-back never runs
 * @param promoteEverySeconds the mean simulated time between two promotions of the single server's replica: the
 *     master dies (every connection cut, connects refused for 50 ms to 3 s) and comes back at its address with the
 *     data its replica had applied, a fresh replica syncing after it ({@link Promotions}); or 0 for none
 * @param ackClients how many of the clients of the single server (the last ones) are built with {@code
 *     replicaAcks(1)}
 * @param control the negative control its clients run with ({@code dlock.unsafe.control}), or empty
 */
public record SimConfig(
        long seed,
        long steps,
        int clients,
        int callersPerClient,
        int threadCallersPerClient,
        int namesPerKind,
        int permits,
        int redlockNodes,
        long leaseMillis,
        long maxDelayMillis,
        long spikeDelayMillis,
        double replyLoss,
        double messageLoss,
        long dropEverySeconds,
        long wipeEverySeconds,
        long serverWipeEverySeconds,
        long forceEverySeconds,
        long redlockForceEverySeconds,
        double fenceCut,
        long promoteEverySeconds,
        int ackClients,
        String control) {
    /** The default of {@link #wipeEverySeconds}. */
    static final long WIPE_EVERY = 10;
    /** The default of {@link #serverWipeEverySeconds}: about four per 200,000 steps. */
    static final long SERVER_WIPE_EVERY = 120;
    /** The default of {@link #forceEverySeconds}: about fifteen per 200,000 steps. */
    static final long FORCE_EVERY = 30;
    /** The default of {@link #redlockForceEverySeconds}: as many on Redlock's names. */
    static final long REDLOCK_FORCE_EVERY = 30;
    /** The default of {@link #fenceCut}. */
    static final double FENCE_CUT = 0.3;
    /** The default of {@link #promoteEverySeconds}: about four per 200,000 steps. */
    static final long PROMOTE_EVERY = 120;
    /** The default of {@link #ackClients}: one of the three. */
    static final int ACK_CLIENTS = 1;

    /**
     * The defaults for a seed: 3 clients of 4 callers and 2 thread callers over 3 names of each kind, 3 permits, Redlock over 3
     * masters, 1 s leases, delays up to 20 ms with spikes up to 1.5 s, one reply in 1,000 and one pub/sub message
     * in 100 lost, each connection dropped every 600 s on average (with 3 clients over a server and 3 Redlock
     * masters, 7 to 12 drops per 100,000 steps in all); the single server losing its data every 120 s, a force-release
     * of one of its names and one of a Redlock name every 30 s each, and a promotion of its replica every 120 s on
     * average, the last of the clients built with {@code replicaAcks(1)}.
     *
     * @param seed the seed
     * @param steps the steps
     * @return the config
     */
    public static SimConfig of(long seed, long steps) {
        return new SimConfig(
                seed,
                steps,
                3,
                4,
                2,
                3,
                3,
                3,
                1000,
                20,
                1500,
                0.001,
                0.01,
                600,
                WIPE_EVERY,
                SERVER_WIPE_EVERY,
                FORCE_EVERY,
                REDLOCK_FORCE_EVERY,
                FENCE_CUT,
                PROMOTE_EVERY,
                ACK_CLIENTS,
                "");
    }

    /**
     * The config as {@code key=value} pairs, every component, as {@link #parse} reads it.
     *
     * @return the text
     */
    public String compact() {
        return "seed=" + seed + ",steps=" + steps + ",clients=" + clients + ",callers=" + callersPerClient
                + ",threads=" + threadCallersPerClient + ",names=" + namesPerKind + ",permits=" + permits + ",redlock="
                + redlockNodes + ",lease="
                + leaseMillis + ",delay=" + maxDelayMillis + ",spike=" + spikeDelayMillis + ",replyLoss="
                + replyLoss + ",messageLoss=" + messageLoss + ",dropEvery=" + dropEverySeconds + ",wipeEvery="
                + wipeEverySeconds + ",serverWipeEvery=" + serverWipeEverySeconds + ",forceEvery=" + forceEverySeconds
                + ",redlockForceEvery=" + redlockForceEverySeconds + ",fenceCut=" + fenceCut + ",promoteEvery="
                + promoteEverySeconds + ",ackClients=" + ackClients
                + ",control=" + control;
    }

    /**
     * Reads a config from {@code key=value} pairs separated by commas ({@link #compact()}'s form); a key not
     * given keeps {@link #of}'s default for the seed and steps given.
     *
     * @param text the pairs; {@code seed} and {@code steps} are required
     * @return the config
     * @throws IllegalArgumentException naming an unknown key, a missing seed or steps, or a malformed value
     */
    public static SimConfig parse(String text) {
        Map<String, String> v = new HashMap<>();
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("sim config: '" + pair + "' is not key=value");
            }
            v.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        if (!v.containsKey("seed") || !v.containsKey("steps")) {
            throw new IllegalArgumentException("sim config: seed and steps are required, in " + text);
        }
        SimConfig d = of(Long.parseLong(v.remove("seed")), Long.parseLong(v.remove("steps")));
        SimConfig c = d.with(x -> {
            x.clients = Integer.parseInt(v.getOrDefault("clients", "" + d.clients));
            x.callersPerClient = Integer.parseInt(v.getOrDefault("callers", "" + d.callersPerClient));
            x.threadCallersPerClient = Integer.parseInt(v.getOrDefault("threads", "" + d.threadCallersPerClient));
            x.namesPerKind = Integer.parseInt(v.getOrDefault("names", "" + d.namesPerKind));
            x.permits = Integer.parseInt(v.getOrDefault("permits", "" + d.permits));
            x.redlockNodes = Integer.parseInt(v.getOrDefault("redlock", "" + d.redlockNodes));
            x.leaseMillis = Long.parseLong(v.getOrDefault("lease", "" + d.leaseMillis));
            x.maxDelayMillis = Long.parseLong(v.getOrDefault("delay", "" + d.maxDelayMillis));
            x.spikeDelayMillis = Long.parseLong(v.getOrDefault("spike", "" + d.spikeDelayMillis));
            x.replyLoss = Double.parseDouble(v.getOrDefault("replyLoss", "" + d.replyLoss));
            x.messageLoss = Double.parseDouble(v.getOrDefault("messageLoss", "" + d.messageLoss));
            x.dropEverySeconds = Long.parseLong(v.getOrDefault("dropEvery", "" + d.dropEverySeconds));
            x.wipeEverySeconds = Long.parseLong(v.getOrDefault("wipeEvery", "" + d.wipeEverySeconds));
            x.serverWipeEverySeconds = Long.parseLong(v.getOrDefault("serverWipeEvery", "" + d.serverWipeEverySeconds));
            x.forceEverySeconds = Long.parseLong(v.getOrDefault("forceEvery", "" + d.forceEverySeconds));
            x.redlockForceEverySeconds =
                    Long.parseLong(v.getOrDefault("redlockForceEvery", "" + d.redlockForceEverySeconds));
            x.fenceCut = Double.parseDouble(v.getOrDefault("fenceCut", "" + d.fenceCut));
            x.promoteEverySeconds = Long.parseLong(v.getOrDefault("promoteEvery", "" + d.promoteEverySeconds));
            x.ackClients = Integer.parseInt(v.getOrDefault("ackClients", "" + d.ackClients));
            x.control = v.getOrDefault("control", d.control);
        });
        v.keySet()
                .removeAll(List.of(
                        "clients",
                        "callers",
                        "threads",
                        "names",
                        "permits",
                        "redlock",
                        "lease",
                        "delay",
                        "spike",
                        "replyLoss",
                        "messageLoss",
                        "dropEvery",
                        "wipeEvery",
                        "serverWipeEvery",
                        "forceEvery",
                        "redlockForceEvery",
                        "fenceCut",
                        "promoteEvery",
                        "ackClients",
                        "control"));
        if (!v.isEmpty()) {
            throw new IllegalArgumentException("sim config: unknown keys " + v.keySet() + " in " + text);
        }
        return c;
    }

    /**
     * This config with a negative control on.
     *
     * @param name the control's name, such as {@code stale-grant}
     * @return the config
     */
    public SimConfig withControl(String name) {
        return with(x -> x.control = name);
    }

    /** This config with {@code change} made to a copy of its components: the one place that lists them all. */
    SimConfig with(Consumer<Draft> change) {
        Draft x = new Draft(this);
        change.accept(x);
        return new SimConfig(
                x.seed,
                x.steps,
                x.clients,
                x.callersPerClient,
                x.threadCallersPerClient,
                x.namesPerKind,
                x.permits,
                x.redlockNodes,
                x.leaseMillis,
                x.maxDelayMillis,
                x.spikeDelayMillis,
                x.replyLoss,
                x.messageLoss,
                x.dropEverySeconds,
                x.wipeEverySeconds,
                x.serverWipeEverySeconds,
                x.forceEverySeconds,
                x.redlockForceEverySeconds,
                x.fenceCut,
                x.promoteEverySeconds,
                x.ackClients,
                x.control);
    }

    /** The components of one config while {@link #with} changes some. */
    static final class Draft {
        long seed;
        long steps;
        int clients;
        int callersPerClient;
        int threadCallersPerClient;
        int namesPerKind;
        int permits;
        int redlockNodes;
        long leaseMillis;
        long maxDelayMillis;
        long spikeDelayMillis;
        double replyLoss;
        double messageLoss;
        long dropEverySeconds;
        long wipeEverySeconds;
        long serverWipeEverySeconds;
        long forceEverySeconds;
        long redlockForceEverySeconds;
        double fenceCut;
        long promoteEverySeconds;
        int ackClients;
        String control;

        private Draft(SimConfig c) {
            seed = c.seed;
            steps = c.steps;
            clients = c.clients;
            callersPerClient = c.callersPerClient;
            threadCallersPerClient = c.threadCallersPerClient;
            namesPerKind = c.namesPerKind;
            permits = c.permits;
            redlockNodes = c.redlockNodes;
            leaseMillis = c.leaseMillis;
            maxDelayMillis = c.maxDelayMillis;
            spikeDelayMillis = c.spikeDelayMillis;
            replyLoss = c.replyLoss;
            messageLoss = c.messageLoss;
            dropEverySeconds = c.dropEverySeconds;
            wipeEverySeconds = c.wipeEverySeconds;
            serverWipeEverySeconds = c.serverWipeEverySeconds;
            forceEverySeconds = c.forceEverySeconds;
            redlockForceEverySeconds = c.redlockForceEverySeconds;
            fenceCut = c.fenceCut;
            promoteEverySeconds = c.promoteEverySeconds;
            ackClients = c.ackClients;
            control = c.control;
        }
    }
}
