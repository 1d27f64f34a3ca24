package dev.dlock.contract;

import dev.dlock.testkit.RedisServer;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Counts script round trips on a server since its last {@code CONFIG RESETSTAT}. */
public final class ScriptCalls {
    private static final Pattern EVAL = Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+),.*failed_calls=(\\d+)");

    private ScriptCalls() {}

    /** Scripts that ran on every master since its last {@code CONFIG RESETSTAT}. */
    static long of(ContractRedis redis) {
        long calls = 0;
        for (Object info : redis.commandOnMasters("INFO", "commandstats")) {
            calls += count((String) info);
        }
        return calls;
    }

    /**
     * Waits until no script has run on any master for 300 ms (at most 5 s), then {@code CONFIG RESETSTAT}: a call of an
     * earlier test's client still on its way on a busy host (a release given back on a callback executor, a closing
     * client's last renewal) must not count among the calls of the next.
     */
    static void resetWhenQuiet(ContractRedis redis) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long seen = of(redis);
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(300) && System.nanoTime() < until) {
            sleep();
            long now = of(redis);
            if (now != seen) {
                seen = now;
                quietSince = System.nanoTime();
            }
        }
        redis.commandOnMasters("CONFIG", "RESETSTAT");
    }

    /** The script lines of {@code INFO commandstats} on every master, for a failure message. */
    static String describe(ContractRedis redis) {
        StringBuilder out = new StringBuilder();
        for (Object info : redis.commandOnMasters("INFO", "commandstats")) {
            Matcher m = EVAL.matcher((String) info);
            while (m.find()) {
                out.append(m.group()).append("; ");
            }
        }
        return out.toString();
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the scripts to go quiet", e);
        }
    }

    /**
     * Scripts that ran on one server since its last {@code CONFIG RESETSTAT}: a NOSCRIPT reply is a
     * failed EVALSHA followed by an EVAL, so failures don't count.
     *
     * @param server the server
     * @return the count
     */
    public static long of(RedisServer server) {
        return count((String) server.command("INFO", "commandstats"));
    }

    private static long count(String commandstats) {
        Matcher m = EVAL.matcher(commandstats);
        long calls = 0;
        while (m.find()) {
            calls += Long.parseLong(m.group(2)) - Long.parseLong(m.group(3));
        }
        return calls;
    }
}
