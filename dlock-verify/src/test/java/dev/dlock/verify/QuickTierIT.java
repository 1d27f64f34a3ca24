package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The quick tier of the torture run, part of {@code mvn -B verify}: every scenario against private servers, and every
 * negative control must be caught. The seed comes from {@code -Ddlock.verify.seed}, else it is random and printed;
 * {@code -Ddlock.verify.only=name,name} runs only those scenarios (and then asserts only that they are clean).
 */
@DisabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class QuickTierIT {

    @Test
    void quickTier_isCleanAndCatchesEveryControl() throws Exception {
        long seed = Long.getLong("dlock.verify.seed", System.nanoTime() & 0xFFFFFFL);
        String only = System.getProperty("dlock.verify.only", "");
        List<Scenario> scenarios = Scenario.all().stream()
                .filter(s -> only.isEmpty() || List.of(only.split(",")).contains(s.name()))
                .toList();
        Report report = Verify.run(
                new Options(null, seed, false, Path.of("target", "dlock-verify", "quick-" + seed)), scenarios);
        System.out.print(report.text());
        if (only.isEmpty()) {
            assertThat(report.controls()).as("controls that ran").isEqualTo(5);
            assertThat(report.faults()).as("faults injected:%n%s", report).isEqualTo(14);
        }
        assertThat(report.controlsCaught())
                .as("controls caught, seed %d:%n%s", seed, report)
                .isEqualTo(report.controls());
        assertThat(report.violations())
                .as("violations, seed %d:%n%s", seed, report)
                .isZero();
        assertThat(report.skippedFaults()).isZero();
        assertThat(report.exitCode()).isZero();
    }
}
