package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

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
        TierRun run = TierRun.start(true);
        if (run.allScenarios()) {
            assertThat(run.report().controls()).as("controls that ran").isEqualTo(12);
        }
        run.assertClean();
    }
}
