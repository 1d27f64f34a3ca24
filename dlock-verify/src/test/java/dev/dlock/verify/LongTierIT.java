package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The long tier ({@code mvn -B verify -Pverify-long -pl dlock-verify -am}): three rounds of every fault with 2 s
 * leases. Its figures are recorded in {@code docs/verification.md}. {@code -Ddlock.verify.only=name,name} runs only
 * those scenarios.
 */
@EnabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class LongTierIT {

    @Test
    void longTier_isCleanAndCatchesEveryControl() throws Exception {
        long seed = Long.getLong("dlock.verify.seed", System.nanoTime() & 0xFFFFFFL);
        String only = System.getProperty("dlock.verify.only", "");
        List<Scenario> scenarios = Scenario.all().stream()
                .filter(s -> only.isEmpty() || List.of(only.split(",")).contains(s.name()))
                .toList();
        Report report =
                Verify.run(new Options(null, seed, true, Path.of("target", "dlock-verify", "long-" + seed)), scenarios);
        System.out.print(report.text());
        if (only.isEmpty()) {
            assertThat(report.controls()).as("controls that ran").isEqualTo(5);
        }
        assertThat(report.controlsCaught())
                .as("controls caught, seed %d:%n%s", seed, report)
                .isEqualTo(report.controls());
        assertThat(report.violations())
                .as("violations, seed %d:%n%s", seed, report)
                .isZero();
        assertThat(report.skippedFaults()).as("skipped faults:%n%s", report).isZero();
        assertThat(report.exitCode()).isZero();
    }
}
