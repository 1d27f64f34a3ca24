package dev.dlock.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses durations: a number of seconds as {@code flock -w} and {@code timeout} take them ({@code 0}, {@code 30},
 * {@code 1.5}, {@code .5}), or a number with {@code ms}, {@code s}, {@code m} or {@code h} ({@code 250ms}, {@code
 * 1.5s}, {@code 2m}); whole milliseconds. Picocli names the flag in its message.
 */
final class Durations implements ITypeConverter<Duration> {
    /** What every message and help text says a duration is. */
    static final String GRAMMAR = "seconds (0, 1.5) or a number with ms, s, m or h (250ms, 30s, 2m)";

    private static final Pattern FORMAT = Pattern.compile("(\\d{1,12}(?:\\.\\d{0,9})?|\\.\\d{1,9})(ms|s|m|h)?");

    @Override
    public Duration convert(String text) {
        return parse(text);
    }

    static Duration parse(String text) {
        Matcher m = FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new TypeConversionException("'" + text + "' is not a duration: use " + GRAMMAR);
        }
        long millisPerUnit = switch (m.group(2) == null ? "s" : m.group(2)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            default -> 3_600_000;
        };
        BigDecimal millis = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(millisPerUnit));
        try {
            return Duration.ofMillis(millis.stripTrailingZeros().longValueExact());
        } catch (ArithmeticException e) { // a fraction of a millisecond: 12 digits of hours still fit a long
            throw new TypeConversionException("'" + text + "' is not a whole number of milliseconds ("
                    + millis.stripTrailingZeros().toPlainString() + "ms)");
        }
    }

    /** Formats a duration the way it is parsed, for messages: {@code 1.5s}, {@code 250ms}. */
    static String format(long millis) {
        if (millis < 1000) {
            return millis + "ms";
        }
        return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
    }

    /**
     * A message of the library's in the command line's words: each ISO-8601 duration ({@code PT0S}, {@code PT0.01S}) as
     * {@link #format} writes it ({@code 0ms}, {@code 10ms}).
     */
    static String inCliTerms(String message) {
        return ISO.matcher(message)
                .replaceAll(m -> format(Duration.parse(m.group()).toMillis()));
    }

    private static final Pattern ISO = Pattern.compile("\\bPT(?=\\d)(?:\\d+H)?(?:\\d+M)?(?:\\d+(?:\\.\\d+)?S)?\\b");

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
