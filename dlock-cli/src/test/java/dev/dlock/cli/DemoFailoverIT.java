package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code dlock demo --failover} from the CLI jar's class path: the round without replica
 * acknowledgement shows the textbook loss (two workers hold the lock at once after the failover),
 * and the round with {@code replicaAcks(1)} refuses the lock while the replica is held back and ends
 * with no time of two holders. Both are checked, so the demo cannot pass by showing nothing.
 */
final class DemoFailoverIT {
    private static final Pattern TWO_HOLDERS =
            Pattern.compile("time with two holders\\s+(\\d+) ms(?: \\(\\d+ holds\\))?\\s+(\\d+) ms");

    @Test
    void withoutAcknowledgementTheFailoverLosesTheLock_withItNothingIsHeldTwice() {
        Cli demo = Cli.start("demo", "--failover", "--workers", "3");
        assertThat(demo.waitFor(Duration.ofSeconds(180))).as(demo.toString()).isZero();
        String out = demo.stdout();
        assertThat(out).contains("Round 1: without replica acknowledgement", "Round 2: with replicaAcks(1)");
        assertThat(out).contains("acquire refused: the acquire of 'failover' was acknowledged by 0 of the 1");
        Matcher row = TWO_HOLDERS.matcher(out);
        assertThat(row.find()).as(out).isTrue();
        assertThat(Long.parseLong(row.group(1)))
                .as("without acknowledgement: two holders%n%s", demo)
                .isPositive();
        assertThat(Long.parseLong(row.group(2)))
                .as("with replicaAcks(1)%n%s", demo)
                .isZero();
        assertThat(out).contains("Verdict: PASS");
    }
}
