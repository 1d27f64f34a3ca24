package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulation in the build (docs/verification.md, "Deterministic simulation"): a million steps over fixed seeds
 * with no violation; one seed's trace repeated; and each negative control it can express caught within a bounded
 * number of seeds. A failure prints the command that replays its seed.
 */
final class SimulationTest {
    private static final long STEPS_PER_SEED = 200_000;
    private static final long TOTAL_STEPS = Long.getLong("sim.total", 1_000_000);
    private static final Logger DLOCK = Logger.getLogger("dev.dlock");
    private static Level level;

    @BeforeAll
    static void quiet() {
        level = DLOCK.getLevel();
        DLOCK.setLevel(Level.OFF); // a simulated lease lost is logged as a real one would be: thousands of lines
    }

    @AfterAll
    static void loud() {
        DLOCK.setLevel(level);
    }

    private static String describe(Simulation.Result r, long wallNanos) {
        return r.describe(wallNanos);
    }

    @Test
    void aMillionSteps_overFixedSeeds_breakNoInvariant() {
        long steps = 0;
        long wall = 0;
        for (long seed = 1; steps < TOTAL_STEPS; seed++) {
            long t0 = System.nanoTime();
            Simulation.Result r = Simulation.run(Simulation.Config.of(seed, STEPS_PER_SEED));
            long took = System.nanoTime() - t0;
            System.out.println("[sim] " + describe(r, took));
            assertThat(r.violation())
                    .as("seed %d; replay: %s", seed, r.replay())
                    .isNull();
            steps += r.steps();
            wall += took;
        }
        System.out.printf("[sim] %,d steps in %.1f s: %,.0f steps/s%n", steps, wall / 1e9, steps / (wall / 1e9));
    }

    @Test
    void oneSeed_repeatsItsTraceByteForByte() {
        Simulation.Config config = Simulation.Config.of(42, 20_000);
        Simulation.Result first = Simulation.run(config);
        Simulation.Result second = Simulation.run(config);
        assertThat(second.traceHash()).isEqualTo(first.traceHash());
        assertThat(second.steps()).isEqualTo(first.steps());
        assertThat(Simulation.run(Simulation.Config.of(43, 20_000)).traceHash())
                .as("another seed, another trace")
                .isNotEqualTo(first.traceHash());
    }

    @ParameterizedTest
    @ValueSource(strings = {"expired-handoff", "multi-lost-part", "stale-grant"})
    void eachControl_isCaught_withinTwentySeeds(String control) {
        List<String> missed = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            long t0 = System.nanoTime();
            Simulation.Result r =
                    Simulation.run(Simulation.Config.of(seed, STEPS_PER_SEED).withControl(control));
            if (r.violation() != null) {
                System.out.println("[sim] " + describe(r, System.nanoTime() - t0) + " caught after " + missed.size()
                        + " seeds missed it: " + r.violation());
                return;
            }
            missed.add(Long.toString(seed));
        }
        throw new AssertionError(control + " was not caught in seeds " + missed);
    }

    @Test
    @EnabledIfSystemProperty(named = "sim.seed", matches = "-?\\d+")
    void replay() {
        Simulation.Config config = Simulation.Config.of(Long.getLong("sim.seed"), Long.getLong("sim.steps", 200_000))
                .withControl(System.getProperty("sim.control", ""));
        long t0 = System.nanoTime();
        Simulation.Result r = Simulation.run(config);
        System.out.println("[sim] " + describe(r, System.nanoTime() - t0) + ", violation: " + r.violation());
        assertThat(r.violation()).isNull();
    }
}
