package dev.dlock.sim;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Makes a failing run simpler: the same seed with fewer moving parts, as long as it still fails. It cuts the steps to
 * the failing one, then tries, one at a time and keeping each that still fails: no Redlock, no lost replies, no lost
 * messages, no dropped connections, no Redlock master losing its data, no single server losing its data, no force-release of the single server's names or of Redlock's, no write-back cut, no delay spikes, no thread callers (or one per client), two clients, two callers each, one, two names of each kind. Each try is a whole new
 * schedule (the seed's draws fall differently without a part), so the result names a simpler world in which the seed
 * still breaks an invariant, not a shorter list of the original's events. Not thread-safe: runs on the caller's
 * thread.
 */
public final class Shrink {
    /** What is taken away, in this order; each cut is kept if the seed still fails without it. */
    private static final List<UnaryOperator<SimConfig>> CUTS = List.of(
            c -> c.with(x -> x.redlockNodes = 0),
            c -> c.with(x -> x.replyLoss = 0),
            c -> c.with(x -> x.messageLoss = 0),
            c -> c.with(x -> x.dropEverySeconds = 0),
            c -> c.redlockNodes() == 0 ? c : c.with(x -> x.wipeEverySeconds = 0),
            c -> c.with(x -> x.serverWipeEverySeconds = 0),
            c -> c.with(x -> x.forceEverySeconds = 0),
            c -> c.redlockNodes() == 0 ? c : c.with(x -> x.redlockForceEverySeconds = 0),
            c -> c.with(x -> x.promoteEverySeconds = 0),
            c -> c.redlockNodes() == 0 ? c : c.with(x -> x.fenceCut = 0),
            c -> c.with(x -> x.spikeDelayMillis = x.maxDelayMillis),
            c -> c.with(x -> x.threadCallersPerClient = 0),
            c -> c.with(x -> x.threadCallersPerClient = Math.min(1, x.threadCallersPerClient)),
            c -> c.with(x -> x.clients = Math.min(2, x.clients)),
            c -> c.with(x -> x.callersPerClient = Math.min(2, x.callersPerClient)),
            c -> c.with(x -> x.callersPerClient = 1),
            c -> c.with(x -> x.namesPerKind = Math.min(2, x.namesPerKind)));

    private Shrink() {}

    /**
     * What shrinking found.
     *
     * @param config the simplest config that still failed
     * @param result its run
     * @param tries the runs it took
     */
    public record Found(SimConfig config, Simulation.Result result, int tries) {}

    /**
     * Shrinks a failing run.
     *
     * @param failing a run with a violation
     * @return the simplest config found that still fails, with its run
     * @throws IllegalArgumentException if {@code failing} has no violation
     */
    public static Found shrink(Simulation.Result failing) {
        if (failing.violation() == null) {
            throw new IllegalArgumentException(
                    "only a failing run can be shrunk; seed " + failing.config().seed() + " broke no invariant");
        }
        SimConfig best = failing.config().with(x -> x.steps = failing.steps());
        Simulation.Result bestResult = failing;
        int tries = 0;
        for (UnaryOperator<SimConfig> cut : CUTS) {
            SimConfig simpler = cut.apply(best);
            if (simpler.equals(best)) {
                continue;
            }
            tries++;
            Simulation.Result r = Simulation.run(simpler);
            if (r.violation() != null) {
                best = simpler.with(x -> x.steps = r.steps());
                bestResult = r.replayedAs(best); // the same run, capped at its failing step
            }
        }
        return new Found(best, bestResult, tries);
    }
}
