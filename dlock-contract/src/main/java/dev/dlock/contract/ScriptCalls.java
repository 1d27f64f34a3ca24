package dev.dlock.contract;

import dev.dlock.testkit.RedisServer;
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
