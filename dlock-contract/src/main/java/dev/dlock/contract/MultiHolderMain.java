package dev.dlock.contract;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.RespConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A multi-lock user in its own JVM, for {@link MultiLockContract}: prints {@code READY}, waits for a
 * line on its standard input (so that all processes contend at once), then runs {@code rounds} rounds
 * of: take a multi-lock over two or more of the names in a random order, count itself in on each name
 * (a Redis counter per name, whose peak a script records), work a little, count itself out, release.
 * Prints {@code DONE} at the end.
 */
public final class MultiHolderMain {
    private MultiHolderMain() {}

    /**
     * Entry point.
     *
     * @param args redis URI, comma-separated lock names, rounds, random seed, and the class name of the
     *     transport's factory
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        String uri = args[0];
        List<String> names = List.of(args[1].split(","));
        int rounds = Integer.parseInt(args[2]);
        Random random = new Random(Long.parseLong(args[3]));
        TransportFactory transport = HolderProcesses.transport(args[4]);
        LockClient client = LockClient.builder()
                .redisUri(uri)
                .transport(transport)
                .commandTimeout(Duration.ofSeconds(30)) // several JVMs start at once on a small host
                .build();
        RedisUri.HostPort server = RedisUri.parse(uri).hosts().get(0);
        try (RespConnection conn = RespConnection.open(server.host(), server.port(), null, Duration.ofSeconds(10))) {
            HolderProcesses.awaitStart();
            for (int i = 0; i < rounds; i++) {
                List<String> chosen = new ArrayList<>(names);
                Collections.shuffle(chosen, random);
                chosen = chosen.subList(0, 2 + random.nextInt(names.size() - 1));
                try (Lease lease =
                        client.multiLock(chosen.toArray(String[]::new)).acquire()) {
                    for (String name : chosen) {
                        conn.call(
                                "EVAL",
                                SemaphoreHolderMain.COUNT_IN,
                                "2",
                                SemaphoreHolderMain.counter(name),
                                SemaphoreHolderMain.peak(name));
                    }
                    Thread.sleep(5);
                    for (String name : chosen) {
                        conn.call("DECR", SemaphoreHolderMain.counter(name));
                    }
                }
            }
            System.out.println("DONE");
        } finally {
            client.close();
        }
    }
}
