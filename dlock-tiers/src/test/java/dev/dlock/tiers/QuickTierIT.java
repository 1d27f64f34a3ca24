package dev.dlock.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The quick tier of the torture run, part of {@code mvn -B verify}: every scenario against private servers, and every
 * negative control must be caught. The seed comes from {@code -Ddlock.verify.seed}, else it is random and printed;
 * {@code -Ddlock.verify.only=name,name} runs only those scenarios (and then asserts only that they are clean).
 */
@DisabledIfSystemProperty(named = "dlock.verify.long", matches = "true")
final class QuickTierIT {

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // a lane that hangs fails the run instead of the build's clock
    void quickTier_isCleanAndCatchesEveryControl() throws Exception {
        TierRun run = TierRun.start(false);
        if (run.allScenarios()) {
            assertThat(run.report().controls()).as("controls that ran").isEqualTo(12);
            assertThat(run.report().faults())
                    .as("faults injected:%n%s", run.report())
                    .isEqualTo(50);
        }
        run.assertClean();
    }
}
