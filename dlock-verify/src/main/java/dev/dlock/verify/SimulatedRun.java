package dev.dlock.verify;

import dev.dlock.sim.Shrink;
import dev.dlock.sim.SimConfig;
import dev.dlock.sim.Simulation;
import java.io.PrintStream;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code dlock verify --simulate}: seeded runs of the deterministic simulation (dlock-sim's {@link Simulation}: whole
 * clients as shipped, on one thread, over dlock's own scripts on a simulated Redis, network and clock), one line per
 * seed; a violation prints the command that replays its seed. With a control, the defect it re-introduces must be
 * caught: the run stops at the first seed that catches it.
 *
 * @param firstSeed the first seed
 * @param seeds how many seeds, from the first on
 * @param steps steps per seed
 * @param control the negative control to re-introduce, or empty for none
 */
public record SimulatedRun(long firstSeed, long seeds, long steps, String control) {
    /** How many seeds a run has unless told. */
    public static final long DEFAULT_SEEDS = 10;
    /** Steps per seed unless told: the build runs five seeds of this. */
    public static final long DEFAULT_STEPS = 200_000;

    static final String CONTROLS_TEXT =
            "cross-lock-grant, expired-handoff, holders-expiry-lowered, lost-set-permits, multi-lost-part,"
                    + " redlock-minority-renewal, redlock-partial-fence, replica-ack-skipped, stale-grant";
    /**
     * The controls the simulation catches: every control of the client ({@code dlock.unsafe.control}); the torture
     * run's own ones (a checker turned off, a release without the owner check) are its scenarios.
     */
    public static final List<String> CONTROLS = List.of(CONTROLS_TEXT.split(", "));

    private static final Logger DLOCK = Logger.getLogger("dev.dlock"); // held: a logger set OFF must stay referenced

    /**
     * Checks the run.
     *
     * @param firstSeed see the record component
     * @param seeds see the record component
     * @param steps see the record component
     * @param control see the record component
     * @throws IllegalArgumentException if {@code seeds} or {@code steps} is not positive, or the control is not one
     *     of {@link #CONTROLS}
     */
    public SimulatedRun {
        if (seeds < 1 || steps < 1) {
            throw new IllegalArgumentException(
                    "--seeds and --steps must be at least 1, were " + seeds + " and " + steps);
        }
        if (control == null) {
            control = "";
        }
        if (!control.isEmpty() && !CONTROLS.contains(control)) {
            throw new IllegalArgumentException("--control must be one of " + CONTROLS_TEXT + ", not '" + control
                    + "' (the torture run has the others: docs/verification.md)");
        }
    }

    /**
     * Runs the seeds and prints a line per seed and a verdict to {@code out}.
     *
     * @param out where the lines go
     * @return 0 when no seed broke an invariant (with a control: when a seed caught it), 1 otherwise
     */
    public int run(PrintStream out) {
        Level before = DLOCK.getLevel();
        DLOCK.setLevel(Level.OFF); // a simulated lease lost is logged as a real one is: thousands of lines
        try {
            return runQuietly(out);
        } finally {
            DLOCK.setLevel(before);
        }
    }

    private int runQuietly(PrintStream out) {
        out.println("dlock verify --simulate: seeds " + firstSeed + " to " + (firstSeed + seeds - 1) + ", " + steps
                + " steps each" + (control.isEmpty() ? "" : ", control " + control));
        long totalSteps = 0;
        long totalWall = 0;
        for (long seed = firstSeed; seed < firstSeed + seeds; seed++) {
            long t0 = System.nanoTime();
            Simulation.Result r = Simulation.run(SimConfig.of(seed, steps).withControl(control));
            long wall = System.nanoTime() - t0;
            totalSteps += r.steps();
            totalWall += wall;
            out.println(r.describe(wall));
            if (r.violation() != null) {
                out.println("  " + (control.isEmpty() ? "VIOLATION: " : "caught: ") + r.violation());
                out.println("  replay: dlock verify --simulate --seed " + seed + " --seeds 1 --steps " + steps
                        + (control.isEmpty() ? "" : " --control " + control));
                if (control.isEmpty()) {
                    Shrink.Found simpler = Shrink.shrink(r);
                    out.println("  shrunk (" + simpler.tries() + " runs): "
                            + simpler.result().violation());
                    out.println("  its replay: " + simpler.result().replay());
                }
                out.println(
                        control.isEmpty()
                                ? "Verdict: FAIL (an invariant broke)"
                                : "Verdict: PASS (the control was caught)");
                return control.isEmpty() ? 1 : 0;
            }
        }
        out.printf(
                "%,d steps in %.1f s (%,.0f steps/s)%n", totalSteps, totalWall / 1e9, totalSteps / (totalWall / 1e9));
        out.println(
                control.isEmpty()
                        ? "Verdict: PASS (no invariant broke, every run ended quiescent)"
                        : "Verdict: FAIL (the control was not caught in " + seeds + " seeds)");
        return control.isEmpty() ? 0 : 1;
    }
}
