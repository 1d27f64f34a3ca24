package dev.dlock.resp;

import dev.dlock.spi.Script;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Scripts and helpers shared by the transport tests. */
final class Scripts {
    static final Script ECHO_NUMBER = Script.of("echo-number", "return tonumber(ARGV[1])", Script.Reply.INTEGER);
    static final Script SHAPES =
            Script.of("shapes", "return {1, 'two', {3, KEYS[1]}, false, ARGV[1]}", Script.Reply.ARRAY);
    static final Script NIL = Script.of("nil", "return nil", Script.Reply.INTEGER);
    static final Script HSET =
            Script.of("hset", "return redis.call('HSET', KEYS[1], 'f', ARGV[1])", Script.Reply.INTEGER);
    static final Script INCR = Script.of("incr", "return redis.call('INCR', KEYS[1])", Script.Reply.INTEGER);

    private static final Pattern CALLS = Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+),.*failed_calls=(\\d+)");

    private Scripts() {}

    static TransportConfig config(String uri, Duration timeout) {
        return new TransportConfig(uri, uri.replaceAll(":[^:@/]*@", ":***@"), timeout, "dlock-resp-test");
    }

    static TransportConfig config(RedisServer server) {
        return config(server.uri(), Duration.ofSeconds(2));
    }

    /** Calls of {@code EVAL} or {@code EVALSHA} since the last {@code CONFIG RESETSTAT}, failed ones included. */
    static long calls(RedisServer server, String command) {
        Matcher m = CALLS.matcher((String) server.command("INFO", "commandstats"));
        while (m.find()) {
            if (m.group(1).equals(command)) {
                return Long.parseLong(m.group(2));
            }
        }
        return 0;
    }
}
