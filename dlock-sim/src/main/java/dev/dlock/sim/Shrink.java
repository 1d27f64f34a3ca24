package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Makes a failing run simpler: the same seed with fewer moving parts, as long as it still fails. It cuts the steps to
 * the failing one, then tries, one at a time and keeping each that still fails: no Redlock, no lost replies, no lost
 * messages, no delay spikes, two clients, two callers each, one, two names of each kind. Each try is a whole new
 * schedule (the seed's draws fall differently without a part), so the result names a simpler world in which the seed
 * still breaks an invariant, not a shorter list of the original's events. Not thread-safe: runs on the caller's
 * thread.
 */
public final class Shrink {
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
        SimConfig c = failing.config();
        SimConfig best = with(
                c,
                c.clients(),
                c.callersPerClient(),
                c.namesPerKind(),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                failing.steps());
        Simulation.Result bestResult = failing;
        int tries = 0;
        for (UnaryOperator<SimConfig> cut : cuts()) {
            SimConfig simpler = cut.apply(best);
            if (simpler.equals(best)) {
                continue;
            }
            tries++;
            Simulation.Result r = Simulation.run(simpler);
            if (r.violation() != null) {
                best = with(
                        simpler,
                        simpler.clients(),
                        simpler.callersPerClient(),
                        simpler.namesPerKind(),
                        simpler.redlockNodes(),
                        simpler.spikeDelayMillis(),
                        simpler.replyLoss(),
                        simpler.messageLoss(),
                        r.steps());
                bestResult = r;
            }
        }
        return new Found(best, bestResult, tries);
    }

    private static List<UnaryOperator<SimConfig>> cuts() {
        List<UnaryOperator<SimConfig>> cuts = new ArrayList<>();
        cuts.add(c -> with(
                c,
                c.clients(),
                c.callersPerClient(),
                c.namesPerKind(),
                0,
                c.spikeDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                c.steps()));
        cuts.add(c -> with(
                c,
                c.clients(),
                c.callersPerClient(),
                c.namesPerKind(),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                0,
                c.messageLoss(),
                c.steps()));
        cuts.add(c -> with(
                c,
                c.clients(),
                c.callersPerClient(),
                c.namesPerKind(),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                c.replyLoss(),
                0,
                c.steps()));
        cuts.add(c -> with(
                c,
                c.clients(),
                c.callersPerClient(),
                c.namesPerKind(),
                c.redlockNodes(),
                c.maxDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                c.steps()));
        cuts.add(c -> with(
                c,
                Math.min(2, c.clients()),
                c.callersPerClient(),
                c.namesPerKind(),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                c.steps()));
        cuts.add(c -> with(
                c,
                c.clients(),
                Math.min(2, c.callersPerClient()),
                c.namesPerKind(),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                c.steps()));
        cuts.add(c -> with(
                c,
                c.clients(),
                1,
                c.namesPerKind(),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                c.steps()));
        cuts.add(c -> with(
                c,
                c.clients(),
                c.callersPerClient(),
                Math.min(2, c.namesPerKind()),
                c.redlockNodes(),
                c.spikeDelayMillis(),
                c.replyLoss(),
                c.messageLoss(),
                c.steps()));
        return cuts;
    }

    private static SimConfig with(
            SimConfig c,
            int clients,
            int callersPerClient,
            int namesPerKind,
            int redlockNodes,
            long spikeDelayMillis,
            double replyLoss,
            double messageLoss,
            long steps) {
        return new SimConfig(
                c.seed(),
                steps,
                clients,
                callersPerClient,
                namesPerKind,
                c.permits(),
                redlockNodes,
                c.leaseMillis(),
                c.maxDelayMillis(),
                spikeDelayMillis,
                replyLoss,
                messageLoss,
                c.control());
    }
}
