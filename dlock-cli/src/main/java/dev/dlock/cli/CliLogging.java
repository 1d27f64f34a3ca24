package dev.dlock.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the command's log shows on stderr. Everything logs through java.util.logging: dlock's {@code System.Logger}
 * {@code dev.dlock} by the JDK's default, Netty and Lettuce through Netty's logger, and what logs to SLF4J (Reactor,
 * parts of Lettuce) through {@code slf4j-jdk14}.
 *
 * <ul>
 *   <li>By default only dlock's own warnings and errors, one line each ({@code dlock: warning: ...}): what an operator
 *       must act on, such as a lost lease, failed renewals or an evicting server. The libraries' records are off, so
 *       a refused connection shows dlock's one message with its exit code, not a client library's log lines.
 *   <li>{@code --verbose}: also dlock's info and debug records and the libraries' info and above, with time and
 *       logger, and stack traces.
 * </ul>
 *
 * <p>A JVM started with its own {@code java.util.logging.config.file} or {@code .class} (through {@code
 * DLOCK_JAVA_OPTS}) keeps that configuration.
 */
final class CliLogging {
    /** Strongly held: java.util.logging forgets the level of a logger that was garbage collected. */
    private static final Logger ROOT = Logger.getLogger("");

    private static final Logger DLOCK = Logger.getLogger("dev.dlock");

    private CliLogging() {}

    /**
     * Sends the log to stderr as described above; before the command runs.
     *
     * @param verbose whether {@code --verbose} was given
     */
    static void configure(boolean verbose) {
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        LogManager.getLogManager().reset();
        ConsoleHandler stderr = new ConsoleHandler();
        stderr.setLevel(Level.ALL);
        stderr.setFormatter(verbose ? new Detailed() : new OneLine());
        ROOT.addHandler(stderr);
        ROOT.setLevel(verbose ? Level.INFO : Level.OFF);
        DLOCK.setLevel(verbose ? Level.FINE : Level.WARNING);
    }

    /** {@code dlock: warning: MESSAGE (EXCEPTION)}. */
    static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord record) {
            String thrown = record.getThrown() == null ? "" : " (" + record.getThrown() + ")";
            return "dlock: " + level(record) + ": " + formatMessage(record) + thrown + System.lineSeparator();
        }
    }

    /** {@code dlock: 12:00:01.123 warning io.lettuce.core.RedisClient: MESSAGE}, and the stack trace. */
    static final class Detailed extends Formatter {
        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

        @Override
        public String format(LogRecord record) {
            StringBuilder line = new StringBuilder("dlock: ")
                    .append(TIME.format(LocalTime.ofInstant(record.getInstant(), java.time.ZoneId.systemDefault())))
                    .append(' ')
                    .append(level(record))
                    .append(' ')
                    .append(record.getLoggerName())
                    .append(": ")
                    .append(formatMessage(record))
                    .append(System.lineSeparator());
            if (record.getThrown() != null) {
                StringWriter trace = new StringWriter();
                record.getThrown().printStackTrace(new PrintWriter(trace));
                line.append(trace);
            }
            return line.toString();
        }
    }

    /** The {@code System.Logger} level names, which dlock's own records are written with. */
    static String level(LogRecord record) {
        int level = record.getLevel().intValue();
        if (level >= Level.SEVERE.intValue()) {
            return "error";
        } else if (level >= Level.WARNING.intValue()) {
            return "warning";
        } else if (level >= Level.INFO.intValue()) {
            return "info";
        } else if (level >= Level.FINE.intValue()) {
            return "debug";
        }
        return "trace";
    }
}
