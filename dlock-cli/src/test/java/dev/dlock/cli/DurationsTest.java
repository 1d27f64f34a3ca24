package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

final class DurationsTest {
    @Test
    void parse_bareNumbersAreSeconds_asFlockAndTimeoutTakeThem() {
        assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse("30")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("0.5")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse(".25")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("2.")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse(" 7 ")).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void parse_acceptsMillisSecondsMinutesHours_wholeOrWithFractions() {
        assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("1.5m")).isEqualTo(Duration.ofSeconds(90));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("0.001h")).isEqualTo(Duration.ofMillis(3600));
        assertThat(Durations.parse("0s")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse("2.000ms")).isEqualTo(Duration.ofMillis(2));
        assertThat(Durations.parse("30S")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("999999999999h")).isEqualTo(Duration.ofHours(999_999_999_999L));
    }

    @Test
    void parse_rejectsWhatIsNotADuration_sayingWhatIs() {
        for (String bad : new String[] {
            "-1", "-1s", "1d", "s", "ms", "", " ", ".", "1.5.2", "1e3", "1,5", "forever", "PT1S", "5 s", "1000000000000"
        }) {
            assertThatThrownBy(() -> Durations.parse(bad))
                    .as(bad)
                    .isInstanceOf(TypeConversionException.class)
                    .hasMessage("'" + bad + "' is not a duration: use " + Durations.GRAMMAR);
        }
    }

    @Test
    void parse_rejectsFractionsOfAMillisecond() {
        assertThatThrownBy(() -> Durations.parse("1.5ms"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage("'1.5ms' is not a whole number of milliseconds (1.5ms)");
        assertThatThrownBy(() -> Durations.parse("0.0001"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageContaining("(0.1ms)");
    }

    @Test
    void wait_acceptsForeverToo() {
        assertThat(new Durations.Wait().convert("forever")).isSameAs(Durations.Wait.FOREVER);
        assertThat(new Durations.Wait().convert("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(new Durations.Wait().convert("0")).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> new Durations.Wait().convert("later")).hasMessageEndingWith(", or forever");
    }

    /** Picocli puts the flag in front of the converter's message; nothing here reaches Redis (parsing fails first). */
    @Test
    void badDurations_exit64WithAMessageNamingTheOption() {
        assertThat(usageError("run", "--name", "x", "--wait", "soon", "--", "true"))
                .contains("'--wait'", "'soon' is not a duration", Durations.GRAMMAR, "or forever");
        assertThat(usageError("run", "--name", "x", "--ttl", "-5", "--", "true"))
                .contains("'--ttl'", "'-5' is not a duration");
        assertThat(usageError("run", "--name", "x", "--kill-after", "1.5ms", "--", "true"))
                .contains("'--kill-after'", "not a whole number of milliseconds");
        assertThat(usageError("demo", "--ttl", "2d")).contains("'--ttl'", "'2d' is not a duration");
    }

    @Test
    void runDefaults_waitZeroTriesOnce() {
        RunCommand run = new RunCommand();
        new CommandLine(run).parseArgs("--name", "x", "--", "true");
        assertThat(run.wait).isZero();
        assertThat(run.ttl).isEqualTo(Duration.ofSeconds(30));
        assertThat(run.killAfter).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void format_printsMillisBelowASecond() {
        assertThat(Durations.format(250)).isEqualTo("250ms");
        assertThat(Durations.format(1500)).isEqualTo("1.5s");
    }

    /** Runs the command line in this JVM, expecting exit 64; returns stderr. */
    private static String usageError(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = DlockMain.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute(args)).as(err.toString()).isEqualTo(ExitCodes.USAGE);
        return err.toString();
    }
}
