package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

final class DurationsTest {
    @Test
    void parse_acceptsMillisSecondsMinutesHours() {
        assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(Durations.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(Durations.parse("0s")).isEqualTo(Duration.ZERO);
    }

    @Test
    void parse_rejectsNumbersWithoutUnitNegativeAndUnknownUnits() {
        for (String bad : new String[] {"5", "-1s", "1d", "s", "1.5s", "", "forever"}) {
            assertThatThrownBy(() -> Durations.parse(bad))
                    .as(bad)
                    .isInstanceOf(TypeConversionException.class)
                    .hasMessageContaining("not a duration");
        }
    }

    @Test
    void wait_acceptsForeverToo() {
        assertThat(new Durations.Wait().convert("forever")).isSameAs(Durations.Wait.FOREVER);
        assertThat(new Durations.Wait().convert("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThatThrownBy(() -> new Durations.Wait().convert("later")).hasMessageContaining("or forever");
    }

    @Test
    void format_printsMillisBelowASecond() {
        assertThat(Durations.format(250)).isEqualTo("250ms");
        assertThat(Durations.format(1500)).isEqualTo("1.5s");
    }
}
