package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code dlock verify --simulate}: its flags, and a run's lines and verdict, with and without a control. */
final class SimulatedRunTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theFlags_giveTheRun() {
        assertThat(VerifyMain.parse("--simulate", "--seed", "7", "--seeds", "3", "--steps", "1000")
                        .flags
                        .toSimulatedRun())
                .isEqualTo(new SimulatedRun(7, 3, 1000, ""));
        SimulatedRun defaults = VerifyMain.parse("--simulate").flags.toSimulatedRun();
        assertThat(defaults.seeds()).isEqualTo(SimulatedRun.DEFAULT_SEEDS);
        assertThat(defaults.steps()).isEqualTo(SimulatedRun.DEFAULT_STEPS);
        assertThat(defaults.control()).isEmpty();
    }

    @Test
    void flagsThatDoNotApply_areRefusedBeforeAnythingRuns() {
        assertThatThrownBy(() -> VerifyMain.parse("--simulate", "--redis", "redis://x")
                        .flags
                        .toSimulatedRun())
                .hasMessageContaining("--redis");
        assertThatThrownBy(() -> VerifyMain.parse("--simulate", "--transport", "resp")
                        .flags
                        .toSimulatedRun())
                .hasMessageContaining("--transport");
        assertThatThrownBy(() -> VerifyMain.parse("--simulate", "--transport", "lettuce") // the default, spelled out
                        .flags
                        .toSimulatedRun())
                .hasMessageContaining("--transport");
        assertThatThrownBy(() -> VerifyMain.parse("--seeds", "3").flags.toOptions())
                .hasMessage("--seeds, --steps and --control need --simulate");
        assertThatThrownBy(() ->
                        VerifyMain.parse("--simulate", "--steps", "0").flags.toSimulatedRun())
                .hasMessage("--steps must be at least 1, was 0");
        assertThatThrownBy(() ->
                        VerifyMain.parse("--simulate", "--seeds", "x").flags.toSimulatedRun())
                .hasMessage("--seeds must be an integer, not 'x'");
        assertThatThrownBy(() -> VerifyMain.parse("--simulate", "--control", "release-without-owner-check")
                        .flags
                        .toSimulatedRun())
                .hasMessageContaining(
                        "--control must be one of cross-lock-grant, expired-handoff, holders-expiry-lowered,"
                                + " lost-set-permits, multi-lost-part, redlock-minority-renewal, redlock-partial-fence,"
                                + " replica-ack-skipped, stale-grant");
        assertThat(VerifyMain.run(out, out, "--simulate", "--steps", "-1")).isEqualTo(2);
    }

    @Test
    void aCleanRun_printsALinePerSeed_andPasses() {
        assertThat(VerifyMain.run(out, out, "--simulate", "--seed", "5", "--seeds", "2", "--steps", "3000"))
                .isZero();
        assertThat(printed())
                .contains("seeds 5 to 6, 3000 steps each")
                .contains("seed 5: 3,000 steps")
                .contains("seed 6: 3,000 steps")
                .contains("Verdict: PASS (no invariant broke");
    }

    @Test
    void aControl_passesWhenASeedCatchesIt_andFailsWhenNoneDoes() {
        assertThat(new SimulatedRun(1, 1, 20_000, "expired-handoff").run(out)).isZero();
        assertThat(printed())
                .contains("caught: ")
                .contains("replay: dlock verify --simulate --seed 1 --seeds 1 --steps 20000 --control expired-handoff")
                .contains("Verdict: PASS (the control was caught)");
        bytes.reset();
        assertThat(new SimulatedRun(1, 1, 500, "stale-grant").run(out)).isEqualTo(1);
        assertThat(printed()).contains("Verdict: FAIL (the control was not caught in 1 seeds)");
    }
}
