package dev.dlock.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses durations such as {@code 250ms}, {@code 30s}, {@code 5m}, {@code 2h}; picocli names the flag. */
final class Durations implements ITypeConverter<Duration> {
    private static final Pattern FORMAT = Pattern.compile("(\\d{1,12})(ms|s|m|h)");

    @Override
    public Duration convert(String text) {
        return parse(text);
    }

    static Duration parse(String text) {
        Matcher m = FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException(
                    "'" + text + "' is not a duration: use a whole number with ms, s, m or h, such as 250ms, 30s, 5m");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    /** Formats a duration the way it is parsed, for messages: {@code 1.5s}, {@code 250ms}. */
    static String format(long millis) {
        if (millis < 1000) {
            return millis + "ms";
        }
        return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
    }

    /** {@code --wait}: a duration or {@code forever}. */
    static final class Wait implements ITypeConverter<Duration> {
        /** Stands for "forever": {@link dev.dlock.DistributedLock#acquire()}. */
        static final Duration FOREVER = Duration.ofSeconds(Long.MAX_VALUE);

        @Override
        public Duration convert(String text) {
            if (text.trim().equalsIgnoreCase("forever")) {
                return FOREVER;
            }
            try {
                return parse(text);
            } catch (TypeConversionException e) {
                throw new TypeConversionException(e.getMessage() + ", or forever");
            }
        }
    }
}
