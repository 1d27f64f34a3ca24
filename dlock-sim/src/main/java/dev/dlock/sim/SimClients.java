package dev.dlock.sim;

import dev.dlock.LockClient;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How a {@link Simulation} builds its clients: each a real {@link LockClient} through the public builder, on a
 * {@link SimClientRuntime} of its own (clock offset and drift, seeded choices) and a {@link SimTransport} over a
 * {@link LoopNetwork} of its own per server it talks to (seeded delays, spikes, losses, stalls and dropped
 * connections). Every draw comes
 * from the random source it is handed, in a fixed order, so a seed builds one world. Not thread-safe: a run's.
 */
final class SimClients {
    static final long MS = 1_000_000;
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    /** Redlock's, under half the lease as Redlock requires (an acquire waits for every node up to it). */
    static final Duration REDLOCK_TIMEOUT = Duration.ofMillis(400);

    private final EventLoop loop;
    private final SimConfig config;
    private final BooleanSupplier draining;
    private final Consumer<long[]> observe;
    private final List<LoopNetwork> networks = new ArrayList<>();
    private final Map<SimRedis, List<LoopNetwork>> networksTo = new HashMap<>(); // by server
    private final CallerThreads threads;
    private SimTransport.Tap scripts; // told of the single server's scripts as they run
    private SimTransport.Tap redlockScripts; // told of Redlock's masters' scripts as they run
    private dev.dlock.LockListener listener; // of the single server's clients' lock events

    /**
     * @param loop the world
     * @param config the run's config (delays, losses, lease time)
     * @param draining whether the run is ending: no new stalls then
     * @param observe where a stall is recorded in the run's trace
     * @param threads the world's caller threads, on which every client's blocking calls wait
     */
    SimClients(
            EventLoop loop,
            SimConfig config,
            BooleanSupplier draining,
            Consumer<long[]> observe,
            CallerThreads threads) {
        this.threads = threads;
        this.loop = loop;
        this.config = config;
        this.draining = draining;
        this.observe = observe;
    }

    /** Every network made so far, for the losses they counted and for healing them. */
    List<LoopNetwork> networks() {
        return networks;
    }

    /** The networks of every client to {@code master}: a crash of the server cuts them all. */
    List<LoopNetwork> networksTo(SimRedis master) {
        return networksTo.getOrDefault(master, List.of());
    }

    /** Every client of the one server built after this call tells {@code tap} of its scripts as they run. */
    void tapSingle(SimTransport.Tap tap) {
        this.scripts = tap;
    }

    /** Every Redlock client built after this call tells {@code tap} of the scripts it runs as they run on a master. */
    void tapRedlock(SimTransport.Tap tap) {
        this.redlockScripts = tap;
    }

    /** Every client of the one server built after this call tells {@code listener} of its lock events. */
    void listenSingle(dev.dlock.LockListener listener) {
        this.listener = listener;
    }

    /** How long a client built with {@code replicaAcks} waits for its acknowledgements (at most a quarter lease). */
    static final Duration REPLICA_ACK_TIMEOUT = Duration.ofMillis(250);

    /**
     * A client of the one server; {@code acked}: built with {@code replicaAcks(1)} and {@link #REPLICA_ACK_TIMEOUT}, as
     * users build one.
     */
    LockClient single(int index, SimRedis server, SplittableRandom own, boolean acked) {
        SimTransport transport = transport(server, own, COMMAND_TIMEOUT, reconnects(index));
        networksTo.computeIfAbsent(server, k -> new ArrayList<>()).add(networks.get(networks.size() - 1));
        if (scripts != null) {
            transport.tap(scripts);
        }
        String id = String.format(Locale.ROOT, "sim%05d-%08x", index, own.nextInt());
        SimClientRuntime runtime = new SimClientRuntime(
                        loop, own.nextLong(0, 1_000_000 * MS), own.nextDouble(-50, 50), id)
                .callers(threads);
        LockClient.Builder b = LockClient.builder();
        if (listener != null) {
            b.listener(listener);
        }
        if (acked) {
            b.replicaAcks(1)
                    .replicaAckTimeout(
                            REPLICA_ACK_TIMEOUT.compareTo(Duration.ofMillis(config.leaseMillis() / 4)) < 0
                                    ? REPLICA_ACK_TIMEOUT
                                    : Duration.ofMillis(Math.max(1, config.leaseMillis() / 4)));
        }
        return b.redisUri("redis://sim")
                .transport(new TransportFactory() {
                    @Override
                    public Transport connect(TransportConfig c) {
                        return transport;
                    }
                })
                .leaseTime(Duration.ofMillis(config.leaseMillis()))
                .commandTimeout(COMMAND_TIMEOUT)
                .runtime(runtime)
                .build();
    }

    /**
     * A Redlock client over the simulated masters, each reached through a network of its own (a part can be slow,
     * lose a reply or stall while the others answer). What each master answers is told to {@code fences}.
     */
    LockClient redlock(int index, List<SimRedis> nodes, SplittableRandom own, RedlockFences fences) {
        String[] uris = new String[nodes.size()];
        Map<String, SimTransport> transports = new HashMap<>();
        for (int n = 0; n < nodes.size(); n++) {
            uris[n] = "redis://node" + n + ":6379";
            SimTransport transport = transport(nodes.get(n), own, REDLOCK_TIMEOUT, reconnects(index));
            SimTransport.Tap answers = fences.tap(n);
            SplittableRandom cuts = own.split();
            SimTransport.Tap ran = redlockScripts;
            transport.tap(new SimTransport.Tap() {
                @Override
                public void ran(Script script, String[] keys, Object reply) {
                    if (ran != null) {
                        ran.ran(script, keys, reply);
                    }
                }

                @Override
                public void answered(
                        Script script, String[] keys, String[] args, long issued, long wipes, Object reply) {
                    answers.answered(script, keys, args, issued, wipes, reply);
                }

                @Override
                public boolean cutAfter(Script script) {
                    return config.fenceCut() > 0
                            && script.name().equals("redlock-fence")
                            && cuts.nextDouble() < config.fenceCut();
                }
            });
            networksTo.computeIfAbsent(nodes.get(n), k -> new ArrayList<>()).add(networks.get(networks.size() - 1));
            transports.put("node" + n, transport);
        }
        String id = String.format(Locale.ROOT, "red%05d-%08x", index, own.nextInt());
        SimClientRuntime runtime = new SimClientRuntime(
                        loop, own.nextLong(0, 1_000_000 * MS), own.nextDouble(-50, 50), id, own.nextLong())
                .callers(threads);
        // its build connects the nodes on an executor and waits: run those connects at once (they do no I/O here)
        return runtime.inline(() -> LockClient.builder()
                .redlock(uris)
                .transport(c -> transports.get(c.uri().hosts().get(0).host()))
                .leaseTime(Duration.ofMillis(config.leaseMillis()))
                .commandTimeout(REDLOCK_TIMEOUT)
                .runtime(runtime)
                .build());
    }

    /**
     * Which real transport a client's transports mirror when a connection is lost: every second client Lettuce's
     * (commands in flight sent again), the others dlock-resp's (failed).
     */
    private static SimTransport.Reconnects reconnects(int client) {
        return client % 2 == 1 ? SimTransport.Reconnects.LETTUCE : SimTransport.Reconnects.RESP;
    }

    /** A network of one client to one server: seeded delays, losses and stalls. */
    private SimTransport transport(SimRedis to, SplittableRandom own, Duration timeout, SimTransport.Reconnects r) {
        long max = config.maxDelayMillis() * MS;
        long spike = config.spikeDelayMillis() * MS;
        LoopNetwork network = new LoopNetwork(
                loop,
                own.split(),
                new LoopNetwork.Delays(50_000, max, 0.002, spike),
                new LoopNetwork.Delays(50_000, max, 0.1, spike)); // grants late more often than replies
        network.lose(config.replyLoss(), config.messageLoss());
        networks.add(network);
        stalls(network, own.split());
        SimTransport transport = new SimTransport(to, network, false, loop, timeout, r);
        drops(network, SimNetwork.Link.COMMANDS, own.split());
        drops(network, SimNetwork.Link.PUBSUB, own.split());
        return transport;
    }

    /**
     * Now and then (every {@code dropEverySeconds} on average), this link's connection drops, its replies and
     * messages in flight lost; the server is then out of reach on it for up to 300 ms, or one time in four for 1 to 3
     * s (past dlock-resp's one-second grace, so that waiting commands fail unsent).
     */
    private void drops(LoopNetwork network, SimNetwork.Link link, SplittableRandom own) {
        if (config.dropEverySeconds() <= 0) {
            return;
        }
        long gap = EventLoop.gapNanos(own, config.dropEverySeconds());
        loop.after(gap, () -> {
            if (draining.getAsBoolean()) {
                return;
            }
            long down = own.nextInt(4) == 0 ? own.nextLong(1000, 3000) : own.nextLong(0, 300);
            network.drop(link, down * MS);
            observe.accept(new long[] {-3, link.ordinal(), down});
            drops(network, link, own);
        });
    }

    /**
     * Now and then, this client's network stalls for up to two leases, both links at once (a pause, a partition that
     * heals) or the pub/sub link longer than the command link (its messages lag behind the replies).
     */
    private void stalls(LoopNetwork network, SplittableRandom own) {
        long gap = own.nextLong(1, 20_000) * MS;
        loop.after(gap, () -> {
            if (draining.getAsBoolean()) {
                return;
            }
            long stall = own.nextLong(0, 2 * config.leaseMillis()) * MS;
            long lag = own.nextBoolean() ? 0 : own.nextLong(0, config.leaseMillis()) * MS;
            network.stall(SimNetwork.Link.COMMANDS, stall);
            network.stall(SimNetwork.Link.PUBSUB, stall + lag);
            observe.accept(new long[] {-1, stall, lag});
            stalls(network, own);
        });
    }
}
