package dev.dlock.contract;

import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.RespConnection;
import java.time.Duration;

/**
 * A semaphore user in its own JVM, for {@link SemaphoreContract}. Mode {@code hold}: takes {@code n}
 * permits, prints {@code ACQUIRED <token>} and holds them until killed. Mode {@code loop}: {@code n}
 * rounds of take one permit, count itself in (a Redis counter, whose peak a script records), work a
 * little, count itself out, release; then prints {@code DONE}. A looping process prints {@code READY} and
 * starts only when it reads a line on its standard input, so that all of them contend at once however
 * unevenly their JVMs started.
 */
public final class SemaphoreHolderMain {
    /** Counts a holder in: INCR, and the peak of the counter kept in KEYS[2]. */
    static final String COUNT_IN = "local c = redis.call('INCR', KEYS[1])\n"
            + "if c > tonumber(redis.call('GET', KEYS[2]) or '0') then redis.call('SET', KEYS[2], c) end\n"
            + "return c";

    private SemaphoreHolderMain() {}

    /**
     * Entry point.
     *
     * @param args mode ({@code hold} or {@code loop}), redis URI, semaphore name, permits, n (permits
     *     held, or rounds), lease ms, and the class name of the transport's factory
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String uri = args[1];
        String name = args[2];
        int permits = Integer.parseInt(args[3]);
        int n = Integer.parseInt(args[4]);
        TransportFactory transport = HolderProcesses.transport(args[6]);
        LockClient client = LockClient.builder()
                .redisUri(uri)
                .transport(transport)
                .leaseTime(Duration.ofMillis(Long.parseLong(args[5])))
                .commandTimeout(Duration.ofSeconds(30)) // eight JVMs start at once on a small host
                .build();
        DistributedSemaphore semaphore = client.semaphore(name, permits);
        if (mode.equals("hold")) {
            Lease lease = semaphore.acquire(n);
            System.out.println("ACQUIRED " + lease.fencingToken());
            HolderProcesses.holdUntilKilled();
            return;
        }
        RedisUri.HostPort server = RedisUri.parse(uri).hosts().get(0);
        // the testkit's small blocking client: a JVM per holder starts faster without Lettuce's Netty
        try (RespConnection conn = RespConnection.open(server.host(), server.port(), null, Duration.ofSeconds(10))) {
            HolderProcesses.awaitStart();
            for (int i = 0; i < n; i++) {
                try (Lease lease = semaphore.acquire()) {
                    conn.call("EVAL", COUNT_IN, "2", counter(name), peak(name));
                    Thread.sleep(20);
                    conn.call("DECR", counter(name));
                }
            }
            System.out.println("DONE");
        } finally {
            client.close();
        }
    }

    static String counter(String name) {
        return "holders-now:{" + name + "}";
    }

    static String peak(String name) {
        return "holders-peak:{" + name + "}";
    }
}
