package dev.dlock.sim;

import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.spi.Script;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The faults of a {@link Simulation} that take holds away from the single server without telling their holders: the
 * server crashing and coming back without its data, and an operator's force-releases ({@code LockAdmin.forceUnlock}).
 * dlock promises no exclusion across either (docs/verification.md, "Without persistence"; the {@code LockAdmin}
 * contract): the run's {@link HoldBook} is told of each as it happens on the server, and exempts exactly the holds
 * taken away, until their holders must have learned it. Not thread-safe: a run is one thread's at a time.
 */
final class SingleServerFaults {
    private static final long MS = 1_000_000;

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final SimRedis server;
    private final List<LockClient> clients;
    private final SimClients builder;
    private final CallerThreads threads;
    private final long epochMs;
    private long wipes; // crashes of the single server that lost its data
    private long forced; // force-releases that ran on the server
    private boolean down; // crashed, or its replica being promoted: not back yet

    /**
     * @param run the run whose book, trace and state these faults use
     * @param config its config
     * @param loop its world
     * @param server the single server
     * @param clients the clients of the single server (filled as they are built)
     * @param builder the clients' builder, which knows their networks to the server
     * @param threads the run's caller threads, one of which the operator takes
     * @param epochMs the server's clock at the world's time 0
     */
    SingleServerFaults(
            Simulation run,
            SimConfig config,
            EventLoop loop,
            SimRedis server,
            List<LockClient> clients,
            SimClients builder,
            CallerThreads threads,
            long epochMs) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.server = server;
        this.clients = clients;
        this.builder = builder;
        this.threads = threads;
        this.epochMs = epochMs;
    }

    /** How many times the single server crashed and lost its data. */
    long wipes() {
        return wipes;
    }

    /** Whether the single server is down: crashed, or failing over to its replica ({@link Promotions}). */
    boolean serverDown() {
        return down;
    }

    /** The single server went down ({@code true}) or came back. */
    void serverDown(boolean down) {
        this.down = down;
    }

    /** How many force-releases ran on the server. */
    long forced() {
        return forced;
    }

    /** What the single server's clients' transports tell of each script as it runs there: the force-releases. */
    SimTransport.Tap tap() {
        return new SimTransport.Tap() {
            @Override
            public void ran(Script script, String[] keys, Object reply) {
                // a negative control renames every script it changes, this one among them
                if (script.name().startsWith("admin-force-release") && reply instanceof List<?> r) {
                    forcedOnServer(keys[0], r);
                }
            }

            @Override
            public void answered(Script script, String[] keys, String[] args, long issued, long wipes, Object reply) {}
        };
    }

    /**
     * Now and then ({@code serverWipeEverySeconds} on average) the single server crashes and loses its data: every
     * client's connections to it are gone at once with what was in flight (nothing more runs there), it is out of
     * reach for 50 ms to 3 s, and it comes back empty, fencing counters included. Every hold it had is gone, by design
     * (docs/verification.md, "Without persistence"): the book exempts them from exclusion until their holders can
     * know ({@link HoldBook}); their tokens still rise.
     */
    void serverWipes(SplittableRandom own) {
        if (config.serverWipeEverySeconds() <= 0) {
            return;
        }
        long gap = EventLoop.gapNanos(own, config.serverWipeEverySeconds());
        loop.after(gap, () -> {
            if (run.draining()) {
                return;
            }
            if (run.weeks().pausing() || down) { // as for a Redlock master: no outage spans a suspended week
                serverWipes(own);
                return;
            }
            long down = own.nextLong(50, 3000) * MS;
            for (LoopNetwork network : builder.networksTo(server)) {
                network.crash(SimNetwork.Link.COMMANDS, down);
                network.crash(SimNetwork.Link.PUBSUB, down);
            }
            run.book().serverCrashed(epochMs + loop.now() / MS);
            wipes++;
            this.down = true;
            loop.after(down, () -> {
                this.down = false;
                server.restart(false);
                run.book().serverRestarted(epochMs + loop.now() / MS);
                serverWipes(own); // the next crash after this one's restart
            });
            run.observe(-5, down / MS);
        });
    }

    /**
     * Now and then ({@code forceEverySeconds} on average) an operator force-releases a name of the single server
     * ({@code LockAdmin.forceUnlock}, through a random client's admin, on a caller thread of its own): its holders are
     * not told, and learn it at their next renewal; its queue is let in. The book exempts exactly the holds it removed
     * ({@link HoldBook}).
     */
    void forceReleases(SplittableRandom own) {
        if (config.forceEverySeconds() <= 0) {
            return;
        }
        CallerThreads.Caller admin = threads.start("sim-admin");
        forceRelease(own, admin);
    }

    private void forceRelease(SplittableRandom own, CallerThreads.Caller admin) {
        long gap = EventLoop.gapNanos(own, config.forceEverySeconds());
        admin.submit(gap, () -> {
            if (run.draining()) {
                return;
            }
            int n = config.namesPerKind();
            String name = switch (own.nextInt(4)) {
                case 0 -> "m" + own.nextInt(n);
                case 1 -> "rw" + own.nextInt(n);
                case 2 -> "p" + own.nextInt(n);
                default -> BlockingCallers.SEMAPHORE;
            };
            LockClient client = clients.get(own.nextInt(clients.size()));
            int outcome;
            try {
                outcome = client.admin()
                        .forceUnlock(name)
                        .removed()
                        .map(i -> i.holders().size())
                        .orElse(0);
            } catch (LockException e) { // the network's: it may have run; if it did, the book knows from the server
                outcome = -1;
            } catch (RuntimeException e) {
                run.violation("the operator's forceUnlock of " + name + " threw " + e);
                outcome = -2;
            }
            run.observe(-6, name.hashCode(), outcome);
            forceRelease(own, admin);
        });
    }

    /**
     * A force-release ran on the server, on the name of key {@code key}, and answered {@code reply}: the book learns
     * the tokens it removed, at the server's clock (a mutex's record names the first token of a relay block, and holds
     * relayed within the client have the block's later ones).
     */
    private void forcedOnServer(String key, List<?> reply) {
        String name = key.substring(key.indexOf('{') + 1, key.lastIndexOf('}'));
        int block = "mutex".equals(String.valueOf(reply.get(0))) ? HoldBook.RELAY_BLOCK : 1;
        Set<Long> tokens = new HashSet<>();
        for (Object entry : (List<?>) reply.get(3)) {
            long token = Long.parseLong(String.valueOf(((List<?>) entry).get(2)));
            for (int i = 0; i < block; i++) {
                tokens.add(token + i);
            }
        }
        run.book().forced(name, epochMs + loop.now() / MS, tokens);
        forced++;
    }
}
