package dev.dlock.resp;

import dev.dlock.spi.Script;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.RespConnection;
import dev.dlock.testkit.Timing;
import java.io.IOException;
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
        return TransportConfig.of(uri, timeout, "dlock-resp-test");
    }

    static TransportConfig config(RedisServer server) {
        return config(server.uri(), Duration.ofSeconds(2));
    }

    /**
     * Waits until {@code master}'s replicas acknowledge writes: on one connection of the testkit's own
     * client, a write and a {@code WAIT} for them, repeated until they count. After a diskless sync
     * Redis 7.0 starts a replica's command stream ({@code REPLCONF GETACK} included) only on the
     * replica's first {@code ACK}, which it sends once a second: until then a {@code WAIT} rightly
     * counts it out.
     */
    static void awaitReplicasAcknowledging(RedisServer master, int replicas) throws IOException {
        long deadline =
                System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        try (RespConnection c = RespConnection.open(master.host(), master.port(), null, Duration.ofSeconds(5))) {
            while (true) {
                c.call("SET", "dlock-test:ack-probe", "1");
                Object acked = c.call("WAIT", Integer.toString(replicas), "200");
                if (Long.valueOf(replicas).equals(acked)) {
                    c.call("DEL", "dlock-test:ack-probe");
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException(replicas + " replica(s) of " + master + " did not acknowledge");
                }
            }
        }
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
