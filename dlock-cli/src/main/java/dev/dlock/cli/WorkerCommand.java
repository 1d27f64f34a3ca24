package dev.dlock.cli;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The hidden {@code dlock worker}: one demo worker process. It loops: take the lease, read the
 * counter, add one in Java, write it back with a fenced write (accepted only with a token at least
 * the last accepted one), release. It reports every step on stdout, one line each, for the demo:
 *
 * <pre>
 * READY id clientId | ACQ id token micros | INC id token value | STALE id token | REL id token micros
 * HOLD id token | DONE id
 * </pre>
 *
 * <p>Its stdin steers it: {@code hold} makes it keep the next lease it takes (and do nothing else
 * until it is killed); {@code stop}, or end of input, makes it stop after the current round.
 * Timestamps are wall-clock microseconds: all workers run on the demo's host, so they share one
 * clock.
 */
@Command(name = "worker", hidden = true, description = "One demo worker (started by dlock demo).")
final class WorkerCommand implements Callable<Integer> {
    /**
     * Accepts a write only if its token is at least the last accepted one. Both keys expire after an
     * hour, so even a demo killed before its cleanup leaves nothing behind for long.
     */
    static final String FENCED_WRITE = "-- KEYS[1] counter  KEYS[2] last accepted token  ARGV[1] token  ARGV[2] value\n"
            + "local last = tonumber(redis.call('GET', KEYS[2]) or '0')\n"
            + "if tonumber(ARGV[1]) < last then return 0 end\n"
            + "redis.call('SET', KEYS[1], ARGV[2], 'PX', 3600000)\n"
            + "redis.call('SET', KEYS[2], ARGV[1], 'PX', 3600000)\n"
            + "return 1\n";

    @Mixin
    RedisOptions redis;

    @Option(names = "--name", required = true)
    String name;

    @Option(names = "--id", required = true)
    int id;

    @Option(names = "--ttl", defaultValue = "2s", converter = Durations.class)
    Duration ttl;

    private volatile boolean holdNext;
    private volatile boolean stop;

    @Override
    public Integer call() throws IOException {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Thread control = new Thread(this::readControl, "worker-control");
        control.setDaemon(true);
        control.start();
        RedisClient raw = RedisClient.create(redis.uri());
        try (LockClient client = redis.connect(ttl, "--ttl");
                StatefulRedisConnection<String, String> connection = raw.connect()) {
            LockAdmin admin = client.admin();
            String[] keys = {admin.keyBeside(name, "counter"), admin.keyBeside(name, "accepted")};
            RedisCommands<String, String> commands = connection.sync();
            DistributedLock lock = client.lock(name);
            out.println("READY " + id + " " + client.clientId());
            while (!stop) {
                Optional<Lease> taken = lock.tryAcquire(Duration.ofSeconds(1));
                if (taken.isEmpty()) {
                    continue;
                }
                Lease lease = taken.get();
                long token = lease.fencingToken();
                out.println("ACQ " + id + " " + token + " " + micros());
                if (holdNext) {
                    out.println("HOLD " + id + " " + token);
                    while (true) {
                        LockSupport.park(); // keep the lease (the watchdog renews it) until the demo kills us
                    }
                }
                String current = commands.get(keys[0]);
                long next = (current == null ? 0 : Long.parseLong(current)) + 1;
                Long accepted = commands.eval(
                        FENCED_WRITE, ScriptOutputType.INTEGER, keys, Long.toString(token), Long.toString(next));
                out.println(
                        (accepted == 1L ? "INC " : "STALE ") + id + " " + token + (accepted == 1L ? " " + next : ""));
                out.println("REL " + id + " " + token + " " + micros());
                try {
                    lease.release();
                } catch (LockException e) {
                    out.println("LOST " + id + " " + token);
                }
                // A short think time, as real work between critical sections: lets a woken waiter in.
                LockSupport.parkNanos(1_000_000);
            }
            out.println("DONE " + id);
            return ExitCodes.OK;
        } finally {
            raw.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    private void readControl() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("hold")) {
                    holdNext = true;
                } else if (line.equals("stop")) {
                    break;
                }
            }
        } catch (IOException e) {
            // the demo is gone: stop as on end of input
        }
        stop = true;
    }

    /** Wall-clock µs, the clock of the workers' lines and of the demo's kill: all run on one host. */
    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }
}
