package dev.dlock.tiers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The quick tier of the torture run, part of {@code mvn -B verify}: {@code dlock verify} from the packaged jar, every
 * scenario against its own private servers, and every negative control must be caught. The seed comes from {@code
 * -Ddlock.verify.seed}, else it is random and printed; {@code -Ddlock.verify.only=name,name} runs only those scenarios
 * (and then asserts only that they are clean).
 */
@DisabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class QuickTierIT {

    @Test
    void quickTier_fromThePackagedJar_isCleanAndCatchesEveryControl() throws Exception {
        // a lane that hangs fails the run instead of the build's clock
        TierRun run = TierRun.tier(false, Duration.ofMinutes(10));
        assertThat(run.report()).contains("private redis-server").doesNotContain("control NOT CAUGHT");
        if (run.allScenarios()) {
            assertThat(run.totals().controls()).as("controls that ran").isEqualTo(12);
            assertThat(run.totals().faults())
                    .as("faults injected:%n%s", run.report())
                    .isEqualTo(50);
        }
        run.assertClean();
    }
}
