package dev.dlock.testkit;

import java.time.Duration;

/**
 * Scales test timeouts by the factor in the system property {@code dlock.test.timing}, so slow CI machines can stretch
 * every timeout at once.
 *
 * <p>This class is stateless and thread-safe; the property is read on every call.
 */
public final class Timing {

    /** Name of the system property holding the multiplier. */
    public static final String PROPERTY = "dlock.test.timing";

    private Timing() {}

    /**
     * Returns the timing multiplier from the system property {@value #PROPERTY}, or {@code 1.0} when it is unset.
     *
     * @return the multiplier, always greater than zero
     * @throws IllegalStateException if the property is not a finite number greater than zero
     */
    public static double multiplier() {
        String raw = System.getProperty(PROPERTY);
        if (raw == null || raw.isBlank()) {
            return 1.0;
        }
        double value;
        try {
            value = Double.parseDouble(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("System property " + PROPERTY + " is not a number: '" + raw + "'", e);
        }
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalStateException(
                    "System property " + PROPERTY + " must be a finite number > 0, but was '" + raw + "'");
        }
        return value;
    }

    /**
     * Returns {@code duration} multiplied by {@link #multiplier()}.
     *
     * @param duration the nominal duration, not negative
     * @return the scaled duration
     * @throws IllegalArgumentException if {@code duration} is negative
     * @throws IllegalStateException if the multiplier property is invalid
     */
    public static Duration scaled(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration must not be negative: " + duration);
        }
        double nanos = duration.toNanos() * multiplier();
        return Duration.ofNanos(nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.round(nanos));
    }
}
