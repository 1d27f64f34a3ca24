package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

@Isolated // sets the timing scale JVM-wide
final class TimingTest {

    private String saved;

    @BeforeEach
    void save() {
        saved = System.getProperty(Timing.PROPERTY);
    }

    @AfterEach
    void restore() {
        if (saved == null) {
            System.clearProperty(Timing.PROPERTY);
        } else {
            System.setProperty(Timing.PROPERTY, saved);
        }
    }

    @Test
    void multiplier_defaultsToOne() {
        System.clearProperty(Timing.PROPERTY);

        assertThat(Timing.multiplier()).isEqualTo(1.0);
        assertThat(Timing.scaled(Duration.ofMillis(250))).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void scaled_multipliesByProperty() {
        System.setProperty(Timing.PROPERTY, "2.5");

        assertThat(Timing.scaled(Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void multiplier_rejectsZeroNegativeAndGarbage() {
        for (String bad : new String[] {"0", "-1", "fast", "NaN", "Infinity"}) {
            System.setProperty(Timing.PROPERTY, bad);
            assertThatThrownBy(Timing::multiplier)
                    .as(bad)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(Timing.PROPERTY);
        }
    }
}
