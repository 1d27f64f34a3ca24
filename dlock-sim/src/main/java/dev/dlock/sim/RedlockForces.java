package dev.dlock.sim;

import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.spi.Script;
import java.util.List;
import java.util.SplittableRandom;

/**
 * An operator's force-releases of Redlock's names: now and then ({@code redlockForceEverySeconds} on average) {@code
 * LockAdmin.forceUnlock} of a Redlock name through a random client's Redlock client, on a caller thread of its own. It
 * runs the force script on every master that answers (a master that does not keeps its key), and fails with a {@code
 * LockConnectionException} if fewer than a quorum answered. Its holders are not told; they learn it when a renewal
 * finds the key gone on too many masters. The run's {@link HoldBook} is told of each key deleted as the script runs on
 * its master, and exempts a hold left short of a quorum by it until its holder must have learned it. Not thread-safe:
 * a run is one thread's at a time.
 */
final class RedlockForces {
    private static final long MS = 1_000_000;

    private final Simulation run;
    private final SimConfig config;
    private final EventLoop loop;
    private final List<LockClient> redlocks;
    private final CallerThreads threads;
    private final long epochMs;
    private long calls; // forceUnlock calls that returned or failed
    private long deleted; // lock keys of a holder the force script deleted, on any master

    /**
     * @param run the run whose book, trace and state these force-releases use
     * @param config its config
     * @param loop its world
     * @param redlocks the Redlock clients, one per client (filled as they are built)
     * @param threads the run's caller threads, one of which the operator takes
     * @param epochMs the servers' clock at the world's time 0
     */
    RedlockForces(
            Simulation run,
            SimConfig config,
            EventLoop loop,
            List<LockClient> redlocks,
            CallerThreads threads,
            long epochMs) {
        this.run = run;
        this.config = config;
        this.loop = loop;
        this.redlocks = redlocks;
        this.threads = threads;
        this.epochMs = epochMs;
    }

    /** How many force-releases of Redlock names the operator made (each over every master). */
    long calls() {
        return calls;
    }

    /** How many lock keys of a holder the force script deleted, counted per master. */
    long deleted() {
        return deleted;
    }

    /**
     * The Redlock clients' tap of scripts as they run on a master: a force script that deleted a holder's key tells the
     * book which owner id lost it there, and when.
     */
    SimTransport.Tap ran() {
        return new SimTransport.Tap() {
            @Override
            public void ran(Script script, String[] keys, Object reply) {
                // {holder or '', pttl, counter before, keys deleted}
                if (script.name().startsWith("redlock-force")
                        && reply instanceof List<?> r
                        && r.size() == 4
                        && !String.valueOf(r.get(0)).isEmpty()
                        && r.get(3) instanceof Long n
                        && n > 0) {
                    run.book().redlockForced(String.valueOf(r.get(0)), epochMs + loop.now() / MS);
                    deleted++;
                }
            }

            @Override
            public void answered(Script script, String[] keys, String[] args, long issued, long wipes, Object reply) {}
        };
    }

    /** Starts the operator, unless the run has no Redlock or no force-release of its names. */
    void start(SplittableRandom own) {
        if (config.redlockForceEverySeconds() <= 0 || config.redlockNodes() <= 0) {
            return;
        }
        forceRelease(own, threads.start("sim-admin-redlock"));
    }

    private void forceRelease(SplittableRandom own, CallerThreads.Caller admin) {
        long gap = EventLoop.gapNanos(own, config.redlockForceEverySeconds());
        admin.submit(gap, () -> {
            if (run.draining()) {
                return;
            }
            String name = "r" + own.nextInt(config.namesPerKind());
            LockClient client = redlocks.get(own.nextInt(redlocks.size()));
            int outcome;
            try {
                outcome = client.admin().forceUnlock(name).removed().isPresent() ? 1 : 0;
            } catch (LockException e) { // too few masters answered: it ran on some, which the book knows
                outcome = -1;
            } catch (RuntimeException e) {
                run.violation("the operator's Redlock forceUnlock of " + name + " threw " + e);
                outcome = -2;
            }
            calls++;
            run.observe(-7, name.hashCode(), outcome);
            forceRelease(own, admin);
        });
    }
}
