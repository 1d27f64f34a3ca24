package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code dlock verify --simulate} from the packaged jar: the simulation (dlock-sim, LuaJ, dlock's own scripts) is
 * inside the one jar and runs without any Redis; a control is caught; a flag that does not apply is a usage error.
 */
final class VerifySimulateIT {
    @Test
    void aSimulatedRun_passes_fromTheJar() {
        Cli cli = Cli.run("verify", "--simulate", "--seed", "3", "--seeds", "1", "--steps", "5000");
        assertThat(cli.exitCode()).as(cli.toString()).isZero();
        assertThat(cli.stdout()).contains("seed 3: 5,000 steps").contains("Verdict: PASS");
    }

    @Test
    void aControl_isCaught_fromTheJar() {
        Cli cli = Cli.run("verify", "--simulate", "--seed", "1", "--seeds", "1", "--control", "expired-handoff");
        assertThat(cli.exitCode()).as(cli.toString()).isZero();
        assertThat(cli.stdout()).contains("caught: ").contains("Verdict: PASS (the control was caught)");
    }

    @Test
    void aTortureRunFlag_withSimulate_isAUsageError() {
        Cli cli = Cli.run("verify", "--simulate", "--only", "network");
        assertThat(cli.exitCode()).as(cli.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.stderr()).contains("--simulate runs no Redis");
    }
}
