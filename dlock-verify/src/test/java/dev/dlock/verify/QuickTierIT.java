package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The quick tier of the torture run, part of {@code mvn -B verify}: every scenario against private servers, and every
 * negative control must be caught. The seed comes from {@code -Ddlock.verify.seed}, else it is random and printed.
 */
@DisabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class QuickTierIT {

    @Test
    void quickTier_isCleanAndCatchesEveryControl() throws Exception {
        long seed = Long.getLong("dlock.verify.seed", System.nanoTime() & 0xFFFFFFL);
        Report report = Verify.run(new Options(null, seed, false, Path.of("target", "dlock-verify", "quick-" + seed)));
        System.out.print(report.text());
        assertThat(report.controls()).as("controls that ran").isEqualTo(3);
        assertThat(report.controlsCaught())
                .as("controls caught, seed %d:%n%s", seed, report)
                .isEqualTo(3);
        assertThat(report.violations())
                .as("violations, seed %d:%n%s", seed, report)
                .isZero();
        assertThat(report.faults()).as("faults injected:%n%s", report).isEqualTo(10);
        assertThat(report.skippedFaults()).isZero();
        assertThat(report.exitCode()).isZero();
    }
}
