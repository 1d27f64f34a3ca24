package dev.dlock.sim;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The restarts of a {@link Simulation}'s servers: any server restarting with its data now and then, and a Redlock
 * master crashing and coming back without it (the single server's crashes without data are {@link
 * SingleServerFaults}'). Not thread-safe: a run is one thread's at a time.
 */
final class Restarts {
    private static final long MS = 1_000_000;

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final SimRedis server;
    private final List<SimRedis> nodes;
    private final SimClients builder;

    /**
     * @param run the run whose state and trace these restarts use
     * @param config its config
     * @param loop its world
     * @param server the single server
     * @param nodes Redlock's masters
     * @param builder the clients' builder, which knows their networks to each server
     */
    Restarts(
            Simulation run,
            SimConfig config,
            EventLoop loop,
            SimRedis server,
            List<SimRedis> nodes,
            SimClients builder) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.server = server;
        this.nodes = nodes;
        this.builder = builder;
    }

    /**
     * Now and then (every 20–60 s) one server restarts with its data, as from an AOF: the keys that expired meanwhile
     * are gone, the script cache is empty (the next EVALSHA meets NOSCRIPT) and every client connection is closed:
     * the commands in flight fail, and the transports reconnect and subscribe again. Restarts without data are
     * {@link #redlockWipes} (a Redlock master's) and {@link SingleServerFaults#serverWipes} (the single server's).
     */
    void withData(SplittableRandom own) {
        loop.after(own.nextLong(20_000, 60_000) * MS, () -> {
            if (run.draining()) {
                return;
            }
            int which = own.nextInt(1 + nodes.size());
            (which == 0 ? server : nodes.get(which - 1)).restart(true);
            run.observe(-2, which);
            withData(own);
        });
    }

    /**
     * Now and then ({@code wipeEverySeconds} on average) one Redlock master crashes and loses its data: every client's
     * connections to it are gone at once with what was in flight (nothing more runs there), it is out of reach for a
     * lease plus the drift allowance (docs/redlock.md's delayed-restart rule: no hold it granted is valid when it is
     * back), and up to a lease more, and it comes back empty. {@link RedlockFences} counts what it lost.
     */
    void redlockWipes(SplittableRandom own) {
        if (config.wipeEverySeconds() <= 0 || nodes.isEmpty()) {
            return;
        }
        long gap = EventLoop.gapNanos(own, config.wipeEverySeconds());
        loop.after(gap, () -> {
            if (run.draining()) {
                return;
            }
            if (run.weeks().pausing()) {
                // A crash's restart is an event, which a suspended week would move on with the clients' timers while
                // the crashed master's outage (LoopNetwork's) ends in the server's time: it would serve after the week
                // and then lose its data. The week waits 6 s, longer than any outage; none starts meanwhile.
                redlockWipes(own);
                return;
            }
            int which = own.nextInt(nodes.size());
            SimRedis node = nodes.get(which);
            long lease = config.leaseMillis();
            long down = (lease + lease / 100 + 2 + 1 + own.nextLong(0, lease)) * MS;
            for (LoopNetwork network : builder.networksTo(node)) {
                network.crash(SimNetwork.Link.COMMANDS, down);
                network.crash(SimNetwork.Link.PUBSUB, down);
            }
            loop.after(down, () -> node.restart(false));
            run.observe(-4, which, down / MS);
            redlockWipes(own);
        });
    }
}
