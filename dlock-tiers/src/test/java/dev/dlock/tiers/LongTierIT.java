package dev.dlock.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The long tier ({@code mvn -B verify -Pverify-long -pl dlock-tiers -am}): three rounds of every fault with 2 s
 * leases, {@code dlock verify --long} from the packaged jar. Its figures are recorded in {@code docs/verification.md}.
 * {@code -Ddlock.verify.only=name,name} runs only those scenarios.
 */
@EnabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class LongTierIT {

    @Test
    void longTier_isCleanAndCatchesEveryControl() throws Exception {
        TierRun run = TierRun.tier(true, Duration.ofMinutes(60));
        if (run.allScenarios()) {
            assertThat(run.totals().controls()).as("controls that ran").isEqualTo(12);
        }
        run.assertClean();
    }
}
