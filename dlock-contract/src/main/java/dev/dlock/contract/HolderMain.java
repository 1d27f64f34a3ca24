package dev.dlock.contract;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.spi.TransportFactory;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A lock holder in its own JVM, driven over stdin by the fault tests: acquires, then answers
 * {@code write} (to the fenced resource), {@code valid}, {@code release}.
 */
public final class HolderMain {
    /** Accepts a write only with a token not lower than the last one accepted. */
    static final String FENCED_WRITE = "local last = tonumber(redis.call('GET', KEYS[1]) or '0')\n"
            + "if tonumber(ARGV[1]) < last then return 0 end\n"
            + "redis.call('SET', KEYS[1], ARGV[1]) return 1";

    private HolderMain() {}

    /**
     * Entry point.
     *
     * @param args redis URI, lock name, lease ms, and the class name of the transport's factory (the
     *     test's own transport, which this JVM has on its class path too)
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String name = args[1];
        TransportFactory transport = HolderProcesses.transport(args[3]);
        LockClient client = LockClient.builder()
                .redisUri(uri)
                .transport(transport)
                .leaseTime(Duration.ofMillis(Long.parseLong(args[2])))
                .build();
        RedisClient raw = RedisClient.create(uri);
        StatefulRedisConnection<String, String> conn = raw.connect();
        Lease lease = client.lock(name).acquire();
        lease.onLost(loss -> System.out.println("LOST " + loss.getMessage()));
        System.out.println("ACQUIRED " + lease.fencingToken());
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            switch (line) {
                case "write" ->
                    System.out.println(fencedWrite(conn, name, lease.fencingToken()) ? "WRITE ok" : "WRITE rejected");
                case "valid" -> System.out.println("VALID " + lease.isValid());
                case "release" -> {
                    try {
                        lease.release();
                        System.out.println("RELEASE ok");
                    } catch (LockLostException e) {
                        System.out.println("RELEASE lost");
                    }
                }
                default -> System.out.println("UNKNOWN " + line);
            }
        }
    }

    static boolean fencedWrite(StatefulRedisConnection<String, String> conn, String name, long token) {
        Long ok = conn.sync()
                .eval(FENCED_WRITE, ScriptOutputType.INTEGER, new String[] {"resource:" + name}, Long.toString(token));
        return ok == 1L;
    }
}
