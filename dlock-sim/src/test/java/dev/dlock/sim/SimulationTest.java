package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
        Map<String, Long> exempt = new TreeMap<>();
        Map<String, Long> failovers = new TreeMap<>();
        Map<String, Long> redlockForces = new TreeMap<>();
        for (long seed = 1; steps < TOTAL_STEPS; seed++) {
            long t0 = System.nanoTime();
            Map<String, Long> tally = new TreeMap<>();
            Simulation.Result r = Simulation.run(SimConfig.of(seed, STEPS_PER_SEED), tally);
            tally.forEach((k, v) -> {
                if (k.startsWith("exempt")) {
                    exempt.merge(k, v, Long::sum);
                } else if (k.startsWith("promotions") || k.startsWith("acked") || k.startsWith("replica")) {
                    failovers.merge(k, v, Long::sum);
                } else if (k.startsWith("Redlock force")) {
                    redlockForces.merge(k, v, Long::sum);
                }
            });
            long took = System.nanoTime() - t0;
            System.out.println("[sim] " + describe(r, took));
            if (r.violation() != null) {
                Shrink.Found simpler = Shrink.shrink(r);
                throw new AssertionError("seed " + seed + ": " + r.violation() + "\nreplay: " + r.replay()
                        + "\nshrunk (" + simpler.tries() + " tries): "
                        + simpler.result().violation() + "\nreplay: "
                        + simpler.result().replay());
            }
            steps += r.steps();
            wall += took;
        }
        System.out.printf("[sim] %,d steps in %.1f s: %,.0f steps/s%n", steps, wall / 1e9, steps / (wall / 1e9));
        System.out.println("[sim] holds believed valid after the server lost them, exempted: " + exempt);
        System.out.println("[sim] failovers to the replica: " + failovers);
        System.out.println("[sim] an operator's force-releases of Redlock names: " + redlockForces);
        // the overlaps dlock does not exclude happen, and are judged by their bound, not skipped by a quiet run
        assertThat(exempt.getOrDefault("exempt after restart without data", 0L)).isPositive();
        assertThat(exempt.getOrDefault("exempt after force-release", 0L)).isPositive();
        assertThat(exempt.getOrDefault("exempt after Redlock force-release", 0L))
                .isPositive();
        // the replica is promoted, and a replicaAcks client's hold lives through a promotion
        assertThat(failovers.getOrDefault("promotions", 0L)).isPositive();
        assertThat(failovers.getOrDefault("acked holds across a promotion", 0L)).isPositive();
    }

    @Test
    void oneSeed_repeatsItsTraceByteForByte() {
        SimConfig config = SimConfig.of(42, 20_000);
        Simulation.Result first = Simulation.run(config);
        Simulation.Result second = Simulation.run(config);
        assertThat(second.traceHash()).isEqualTo(first.traceHash());
        assertThat(second.steps()).isEqualTo(first.steps());
        assertThat(Simulation.run(SimConfig.of(43, 20_000)).traceHash())
                .as("another seed, another trace")
                .isNotEqualTo(first.traceHash());
    }

    @Test
    void aRun_leavesNoCallerThreadBehind_whetherItEndsQuiescentOrMidWait() {
        Simulation.Result clean = Simulation.run(SimConfig.of(7, 20_000));
        assertThat(clean.violation()).isNull();
        Simulation.Result failed = Simulation.run(SimConfig.of(1, 20_000).withControl("holders-expiry-lowered"));
        assertThat(failed.violation())
                .as("ends early, its callers mid-operation")
                .isNotNull();
        assertThat(Thread.getAllStackTraces().keySet())
                .filteredOn(t -> t.getName().startsWith("sim-caller-") && t.isAlive())
                .isEmpty();
    }

    @Test
    void threadCallers_putRedlockAndMultiHoldsInTheBook_andMeetInterruptedLockInterruptibly() {
        Map<String, Long> tally = new TreeMap<>();
        Simulation.Result r = Simulation.run(SimConfig.of(3, 50_000), tally);
        System.out.println("[sim] thread callers of seed 3, 50,000 steps: " + tally);
        assertThat(r.violation()).isNull();
        assertThat(tally.getOrDefault("book REDLOCK", 0L))
                .as("Redlock holds of the blocking API in the book")
                .isPositive();
        assertThat(tally.getOrDefault("book MULTI", 0L))
                .as("multi-lock holds of the blocking API in the book")
                .isPositive();
        assertThat(tally.getOrDefault("book MUTEX", 0L)).isPositive();
        assertThat(tally.getOrDefault("lockInterruptibly interrupted", 0L))
                .as("lockInterruptibly() ended by an interrupt")
                .isPositive();
        assertThat(tally.getOrDefault("lockInterruptibly held", 0L)).isPositive();
    }

    @Test
    void serverWipesForceReleasesAndPromotions_areOff_atZero() {
        Map<String, Long> tally = new TreeMap<>();
        Simulation.Result without = Simulation.run(
                SimConfig.parse("seed=3,steps=20000,serverWipeEvery=0,forceEvery=0,redlockForceEvery=0,promoteEvery=0"),
                tally);
        assertThat(without.violation()).isNull();
        assertThat(without.serverWipes()
                        + without.forceReleases()
                        + without.redlockForceReleases()
                        + without.promotions())
                .isZero();
        assertThat(tally)
                .doesNotContainKeys(
                        "exempt after restart without data",
                        "exempt after force-release",
                        "exempt after Redlock force-release",
                        "exempt after promotion");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "expired-handoff",
                "multi-lost-part",
                "stale-grant",
                "cross-lock-grant",
                "holders-expiry-lowered",
                "lost-set-permits",
                "redlock-partial-fence",
                "replica-ack-skipped",
                "redlock-minority-renewal"
            })
    void eachControl_isCaught_withinTwentySeeds(String control) {
        List<String> missed = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            long t0 = System.nanoTime();
            // the world as shipped, every fault on: the run `dlock verify --simulate --control` makes
            SimConfig config = SimConfig.of(seed, STEPS_PER_SEED).withControl(control);
            Simulation.Result r = Simulation.run(config);
            if (r.violation() != null) {
                System.out.println("[sim] " + describe(r, System.nanoTime() - t0) + " caught after " + missed.size()
                        + " seeds missed it: " + r.violation());
                return;
            }
            missed.add(Long.toString(seed));
        }
        throw new AssertionError(control + " was not caught in seeds " + missed);
    }

    /**
     * A Redlock lease renewed on one master's word ({@code redlock-minority-renewal}) outlives a force-release that
     * deleted its key on the two others: in a world whose network neither stalls nor loses anything, and whose masters
     * keep their data, only the operator takes the key away, and the book's bound for a force-released Redlock hold
     * (a lease after the deletion that left it short of a quorum) is what catches it.
     */
    @Test
    void aRedlockLeaseRenewedPastAForceRelease_isCaughtByTheForceReleasesBound() {
        Simulation.Result r = Simulation.run(SimConfig.parse("seed=2,steps=200000,wipeEvery=0,delay=1,spike=1,"
                + "replyLoss=0,messageLoss=0,dropEvery=0,serverWipeEvery=0,promoteEvery=0,forceEvery=0,"
                + "redlockForceEvery=5,control=redlock-minority-renewal"));
        assertThat(r.violation())
                .as(r.replay())
                .contains("REDLOCK hold")
                .contains("(Redlock force-release;")
                .contains("past its bound");
    }

    /**
     * Seed 156 (docs/verification.md): a thread holds {@code m1} through a hand-off it took from the grant's message
     * (token T, {@code granted} still set on the server); its release is lost with its connection (the server
     * restarts); its next {@code lock()} was answered by acquire.lua's grant branch with T again, for a new
     * acquisition. The branch now confirms a hand-off only to a try of the wait it names, so the next acquisition takes
     * a fresh token (GrantConfirmationIT in dlock-core pins the scripts).
     */
    @Test
    void seed156_aThreadsNextHold_afterAReleaseThatNeverRan_takesAFreshToken() {
        Simulation.Result r = Simulation.run(SimConfig.of(156, 170_463));
        assertThat(r.violation()).as(r.replay()).isNull();
    }

    @Test
    void aFailingRun_shrinksToASimplerWorldThatStillFails_andReplaysFromItsConfig() {
        Simulation.Result failing =
                Simulation.run(SimConfig.of(1, STEPS_PER_SEED).withControl("expired-handoff"));
        assertThat(failing.violation()).isNotNull();
        Shrink.Found found = Shrink.shrink(failing);
        System.out.println("[sim] shrunk in " + found.tries() + " tries to "
                + found.config().compact() + ": " + found.result().violation());
        SimConfig shrunk = found.config();
        assertThat(found.result().violation()).isNotNull();
        assertThat(shrunk.steps()).isLessThanOrEqualTo(failing.steps());
        assertThat(shrunk.compact()).isNotEqualTo(failing.config().compact());
        Simulation.Result again = Simulation.run(SimConfig.parse(shrunk.compact()));
        assertThat(again.traceHash()).isEqualTo(found.result().traceHash());
        assertThat(found.result().replay()).contains("-Dsim.config=" + shrunk.compact());
    }

    @Test
    @EnabledIfSystemProperty(named = "sim.seed", matches = "-?\\d+")
    void replay() {
        replay(SimConfig.of(Long.getLong("sim.seed"), Long.getLong("sim.steps", 200_000))
                .withControl(System.getProperty("sim.control", "")));
    }

    /** Replays a whole config, as a shrunk failure prints it: {@code -Dsim.config=seed=3,steps=1000,clients=2,...}. */
    @Test
    @EnabledIfSystemProperty(named = "sim.config", matches = ".+")
    void replayConfig() {
        replay(SimConfig.parse(System.getProperty("sim.config")));
    }

    private static void replay(SimConfig config) {
        long t0 = System.nanoTime();
        Simulation.Result r = Simulation.run(config);
        System.out.println("[sim] " + describe(r, System.nanoTime() - t0) + ", violation: " + r.violation());
        assertThat(r.violation()).isNull();
    }
}
