package dev.dlock.verify;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A holder client in its own JVM: runs one honest {@link Worker} and writes its history to its own file. Prints
 * {@code READY} once connected and {@code HOLDING <token>} when a requested stall begins; reads {@code stall <ms>} and
 * {@code stop} from stdin. The orchestrator SIGKILLs or SIGSTOPs it while it prints {@code HOLDING}.
 */
final class HolderProcess {

    private HolderProcess() {}

    /**
     * Arguments: lock URI, resource URI, scenario, client label, lock names (comma-separated, taken in turn),
     * resource key base (the name in braces is appended), key prefix, client name, ttl ms, command timeout ms, hold max
     * ms, seed, history file, transport ({@link ClientTransport#label()}).
     */
    public static void main(String[] args) throws Exception {
        Verify.quietClientLogs();
        String lockUri = args[0];
        String resourceUri = args[1];
        Duration ttl = Duration.ofMillis(Long.parseLong(args[8]));
        Duration commandTimeout = Duration.ofMillis(Long.parseLong(args[9]));
        Worker.Spec spec = new Worker.Spec(
                args[2],
                args[3],
                Worker.Variant.HONEST,
                List.of(args[4].split(",")),
                args[6],
                ttl,
                ttl,
                commandTimeout,
                Duration.ofMillis(Long.parseLong(args[10])),
                Long.parseLong(args[11]),
                Acquirer.Style.LEASE,
                Duration.ZERO,
                0);
        AtomicBoolean stop = new AtomicBoolean();
        RedisURI uri = RedisURI.create(resourceUri);
        uri.setTimeout(commandTimeout);
        RedisClient raw = RedisClient.create(uri);
        try (History history = new History(Path.of(args[12]));
                LockClient client = connect(
                        lockUri, ClientTransport.of(args[13], "transport"), ttl, args[6], args[7], commandTimeout);
                StatefulRedisConnection<String, String> connection = raw.connect()) {
            Worker worker = new Worker(
                    spec,
                    client,
                    connection.sync(),
                    name -> new FencedResource(args[5] + "{" + name + "}", true),
                    history,
                    new AtomicLong(),
                    stop,
                    line -> {
                        System.out.println(line);
                        System.out.flush();
                    });
            warmUp(client, "warm-" + args[3]);
            Thread thread = new Thread(worker, "holder-" + args[3]);
            thread.start();
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.startsWith("stall ")) {
                    worker.stallNextHold(
                            Duration.ofMillis(Long.parseLong(line.substring(6).trim())));
                } else if (line.equals("stop")) {
                    break;
                }
            }
            stop.set(true);
            thread.join();
        } finally {
            raw.shutdown();
        }
        System.out.println("STOPPED");
    }

    /**
     * One uncontended acquire and release of a throwaway name before the workload, its keys purged after: a fresh JVM's
     * first acquire loads and compiles the client's acquire path, which took over a second on a loaded host (an
     * external-Redis quick tier beside another), and checker 5 read that as the lock idle while an acquire waited. It
     * runs before {@code READY}; a failure (a replacement holder started during a fault) is reported on stderr and
     * the workload starts anyway.
     */
    private static void warmUp(LockClient client, String name) {
        try {
            client.lock(name).tryAcquire(Duration.ofSeconds(5)).ifPresent(Lease::release);
        } catch (LockException e) {
            System.err.println("holder warm-up acquire of " + name + " failed: " + e);
        } finally {
            try {
                client.admin().purge(name);
            } catch (LockException e) {
                System.err.println("holder warm-up purge of " + name + " failed: " + e);
            }
        }
    }

    /** A cold JVM on a busy machine can miss the first connect timeout; the workload has not started yet. */
    private static LockClient connect(
            String uri, ClientTransport transport, Duration ttl, String prefix, String name, Duration timeout) {
        for (int attempt = 1; ; attempt++) {
            try {
                return LockClient.builder()
                        .redisUri(uri)
                        .transport(transport.factory())
                        .leaseTime(ttl)
                        .keyPrefix(prefix)
                        .clientName(name)
                        .commandTimeout(timeout)
                        .build();
            } catch (LockConnectionException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }
}
