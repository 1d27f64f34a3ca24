package dev.dlock.internal.util;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Argument checks that run before any I/O and name the offending argument. A null argument throws
 * {@link NullPointerException} (as everywhere in the API, where null does not mean "the default"); a
 * value out of range throws {@link IllegalArgumentException}.
 */
public final class Args {
    /** Longest duration accepted anywhere: about 292 years overflows nanoseconds, so cap lower. */
    public static final Duration MAX_DURATION = Duration.ofDays(365L * 100);

    private Args() {}

    public static String name(String name, int maxLength) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        if (name.length() > maxLength) {
            throw new IllegalArgumentException(
                    "name must be at most " + maxLength + " characters, was " + name.length());
        }
        return name;
    }

    public static Duration positive(String argument, Duration value) {
        Objects.requireNonNull(value, argument);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(argument + " must be positive, was " + value);
        }
        return atMostMax(argument, value);
    }

    /** The shortest lease time accepted (docs/waiting.md, "Validity at hand-off"). */
    static final long MIN_LEASE_MILLIS = 100;

    /** A lease time: positive, at least {@value #MIN_LEASE_MILLIS} ms. */
    public static Duration leaseTime(String argument, Duration value) {
        Duration lease = positive(argument, value);
        if (lease.toMillis() < MIN_LEASE_MILLIS) {
            throw new IllegalArgumentException(
                    argument + " must be at least " + MIN_LEASE_MILLIS + " ms, was " + value.toMillis() + " ms");
        }
        return lease;
    }

    public static Duration notNegative(String argument, Duration value) {
        Objects.requireNonNull(value, argument);
        if (value.isNegative()) {
            throw new IllegalArgumentException(argument + " must not be negative, was " + value);
        }
        return atMostMax(argument, value);
    }

    public static Duration notNegative(String argument, long time, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (time < 0) {
            throw new IllegalArgumentException(argument + " must not be negative, was " + time + " " + unit);
        }
        long nanos = unit.toNanos(time);
        if (nanos == Long.MAX_VALUE) {
            throw new IllegalArgumentException(argument + " overflows: " + time + " " + unit);
        }
        return atMostMax(argument, Duration.ofNanos(nanos));
    }

    private static Duration atMostMax(String argument, Duration value) {
        if (value.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException(argument + " must be at most 100 years, was " + value);
        }
        return value;
    }

    public static String notBlank(String argument, String value) {
        Objects.requireNonNull(value, argument);
        if (value.isBlank()) {
            throw new IllegalArgumentException(argument + " must not be blank");
        }
        return value;
    }
}
