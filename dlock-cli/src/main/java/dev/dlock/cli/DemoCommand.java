package dev.dlock.cli;

import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.testkit.RedisServer;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dlock demo}: worker processes contend for one lock guarding a read-modify-write counter;
 * one holder is killed with SIGKILL and another takes over within the TTL; a verdict checks the
 * counter and the fencing tokens. Everything it writes lives under a unique key prefix and is deleted
 * at the end.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Worker processes contend for one lock that guards a counter (GET, +1 in Java, fenced SET).",
            "Near the end one holder is killed with SIGKILL and another takes over within the TTL.",
            "Starts a throwaway redis-server from PATH when nothing answers at the Redis URI.",
            "With --failover: starts its own master, replica and three sentinels, kills the master while a",
            "worker holds the lock, and compares the run without and with replica acknowledgement."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the verdict passed", "64:bad flag", "69:no Redis and none could be started", "70:failed"},
        footer = {"%nDurations: " + Durations.GRAMMAR + "."})
final class DemoCommand implements Callable<Integer> {
    private static final String NAME = "counter";

    @Mixin
    RedisOptions redis;

    @Option(
            names = "--workers",
            defaultValue = "4",
            description = "Worker processes, 2..16 (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(
            names = "--seconds",
            defaultValue = "10",
            description = "Length of the run, 4..600 (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(
            names = "--ttl",
            paramLabel = "DURATION",
            defaultValue = "2s",
            converter = Durations.class,
            description = "Lease time of the workers (default: ${DEFAULT-VALUE}).")
    Duration ttl;

    @Option(
            names = "--failover",
            description = "Show a failover losing a lock, and replicaAcks(1) preventing it (own throwaway"
                    + " servers; ignores --redis, --seconds and --ttl).")
    boolean failover;

    private final PrintStream out = System.out;
    private final DemoStats stats = new DemoStats();
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();
    private final AtomicBoolean cleanedUp = new AtomicBoolean();

    @Override
    public Integer call() throws Exception {
        CliFailure.checkRange("--workers", workers, 2, 16);
        CliFailure.checkRange("--seconds", seconds, 4, 600);
        if (failover) {
            return new FailoverDemo(out, workers).run();
        }
        if (redis.redlock || redis.replicaAcks != 0) {
            throw CliFailure.badOption(
                    redis.redlock ? "--redlock" : "--replica-acks",
                    "the demo runs on one Redis; see --failover for replica acknowledgement",
                    null);
        }
        redis.prefix = "dlock-demo-" + UUID.randomUUID().toString().substring(0, 8);
        RedisServer local = null;
        LockClient client;
        try {
            client = redis.connect(ttl, "--ttl");
        } catch (CliFailure e) {
            if (!(e.getCause() instanceof LockConnectionException unreachable)
                    || !RedisFailures.nothingAnswers(unreachable)) {
                throw e;
            }
            out.println("Nothing answers at " + unreachable.redisUri() + ".");
            local = startThrowawayServer();
            out.println("Started a throwaway redis-server at " + local.uri() + " (pid " + local.pid()
                    + "); it is killed when the demo ends.");
            redis.uri = local.uri();
            client = redis.connect(ttl, "--ttl");
        }
        RedisClient raw = RedisClient.create(redis.uri());
        try (LockClient owned = client;
                StatefulRedisConnection<String, String> connection = raw.connect()) {
            return run(owned.admin(), connection.sync(), owned.redisUri());
        } finally {
            for (Process process : processes) {
                process.destroyForcibly();
            }
            raw.shutdown(Duration.ZERO, Duration.ofSeconds(1));
            if (local != null) {
                local.close();
            }
        }
    }

    /**
     * A redis-server of the host's ({@code $DLOCK_REDIS_SERVER}, else {@code redis-server} on {@code PATH}) on a free
     * loopback port, with no persistence, started by the testkit (which {@code dlock verify} and {@code demo
     * --failover} start theirs with too); killed at the end, and by the testkit's shutdown hook on Ctrl-C.
     */
    private static RedisServer startThrowawayServer() {
        try {
            return RedisServer.builder().start();
        } catch (RuntimeException e) {
            throw new CliFailure(
                    ExitCodes.UNAVAILABLE,
                    "cannot start a throwaway redis-server (" + e.getMessage() + "); install Redis or pass --redis URI",
                    e);
        }
    }

    private int run(LockAdmin admin, RedisCommands<String, String> commands, String uri) throws Exception {
        String counterKey = admin.keyBeside(NAME, "counter");
        String acceptedKey = admin.keyBeside(NAME, "accepted");
        out.printf(
                "%d worker processes contend for the lock '%s' (TTL %s) at %s, keys under %s:*%n",
                workers, NAME, Durations.format(ttl.toMillis()), uri, redis.prefix);
        out.println("Each round: take the lock, GET the counter, add 1 in Java, SET it with a fenced write"
                + " (accepted only with a token >= the last accepted), release.");
        // On Ctrl-C the finally below does not run: a hook stops the workers and deletes the keys instead.
        Thread cleanupAtExit = new Thread(() -> cleanUp(admin, commands, counterKey, acceptedKey), "demo-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanupAtExit);
        try {
            for (int i = 1; i <= workers; i++) {
                processes.add(startWorker(i));
            }
            long readyBy = System.currentTimeMillis() + 60_000;
            while (stats.ready() < workers) {
                if (System.currentTimeMillis() > readyBy || processes.stream().anyMatch(p -> !p.isAlive())) {
                    throw new CliFailure(ExitCodes.SOFTWARE, "the worker processes did not start");
                }
                Thread.sleep(50);
            }
            long killed = contend();
            stopWorkers(); // and read all their lines, so the counts below are final
            long counter = parse(commands.get(counterKey));
            return verdict(counter, killed);
        } finally {
            cleanUp(admin, commands, counterKey, acceptedKey);
            try {
                Runtime.getRuntime().removeShutdownHook(cleanupAtExit);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    /** Kills the workers (so none writes again) and deletes every demo key; once. */
    private void cleanUp(LockAdmin admin, RedisCommands<String, String> commands, String... keys) {
        if (!cleanedUp.compareAndSet(false, true)) {
            return;
        }
        for (Process process : processes) {
            process.destroyForcibly();
        }
        try {
            commands.del(keys);
            admin.purge(NAME);
            long left = countKeys(commands, redis.prefix + ":*");
            out.println(
                    left == 0
                            ? "Deleted the demo's keys; nothing left under " + redis.prefix + ":*."
                            : "Warning: " + left + " key(s) left under " + redis.prefix + ":*");
        } catch (RuntimeException e) {
            out.println("Warning: could not delete the demo's keys under " + redis.prefix + ":* (" + e.getMessage()
                    + "); the counter keys expire within an hour");
        }
    }

    /** The timed run: progress line, the kill near the end, the takeover. Returns the kill's takeover µs. */
    private long contend() throws InterruptedException {
        long start = System.nanoTime();
        long killAt = seconds * 1000L - ttl.toMillis() - 2000;
        if (killAt < seconds * 500L) {
            killAt = seconds * 500L;
        }
        long lastAcquisitions = 0;
        long lastTick = start;
        boolean killDone = false;
        long takeover = -1;
        while (System.nanoTime() - start < seconds * 1_000_000_000L) {
            Thread.sleep(250);
            long now = System.nanoTime();
            long acquisitions = stats.acquisitions();
            double rate = (acquisitions - lastAcquisitions) * 1e9 / Math.max(1, now - lastTick);
            lastAcquisitions = acquisitions;
            lastTick = now;
            progress((now - start) / 1e9, rate);
            if (!killDone && (now - start) / 1_000_000 >= killAt) {
                killDone = true;
                takeover = killHolder();
            }
        }
        out.println();
        return takeover;
    }

    /** Tells worker 1 to keep its next lease, SIGKILLs it, waits for another worker to take over. */
    private long killHolder() throws InterruptedException {
        Process victim = processes.get(0);
        send(victim, "hold");
        long token = stats.awaitHeldForKill(1, 10_000);
        if (token < 0) {
            out.println();
            out.println("  worker #1 did not get the lock for the kill; skipping it");
            return -1;
        }
        victim.destroyForcibly(); // SIGKILL: no release, no shutdown hook; only the TTL frees the lock
        stats.killedAt(WorkerCommand.micros());
        out.println();
        out.printf(
                "  SIGKILL worker #1 (pid %d) while it held the lock with token %d; nobody renews its lease now%n",
                victim.pid(), token);
        long takeover = stats.awaitTakeover(ttl.toMillis() + 5000);
        if (takeover < 0) {
            out.println("  nobody took over within " + Durations.format(ttl.toMillis() + 5000));
        } else {
            out.printf(
                    Locale.ROOT,
                    "  worker #%d took over %.2f s after the SIGKILL (TTL %s), token %d > %d%n",
                    stats.takeoverWorker(),
                    takeover / 1e6,
                    Durations.format(ttl.toMillis()),
                    stats.takeoverToken(),
                    token);
        }
        return takeover;
    }

    private void progress(double elapsed, double rate) {
        long handoff = stats.lastHandoffMicros();
        int holder = stats.holder();
        out.printf(
                Locale.ROOT,
                "\r  %5.1fs  acquisitions/s %6.0f  handoff %7s  holder %-10s token %d  increments %d   ",
                elapsed,
                rate,
                handoff < 0 ? "-" : String.format(Locale.ROOT, "%.2fms", handoff / 1000.0),
                holder < 0 ? "(none)" : "worker #" + holder,
                stats.holderToken(),
                stats.increments());
        out.flush();
    }

    private int verdict(long counter, long takeover) {
        List<String> problems = stats.verdict(counter);
        out.println(problems.isEmpty() ? "Verdict: PASS" : "Verdict: FAIL");
        for (String problem : problems) {
            out.println("  " + problem);
        }
        out.printf(
                "  counter in Redis: %d, accepted increments: %d%s%n",
                counter, stats.increments(), counter == stats.increments() ? " (no lost update)" : "");
        out.printf(
                "  stale tokens accepted: %s; stale writes rejected by the fenced write: %d%n",
                problems.isEmpty() ? "0 (tokens strictly increased with every write)" : "see above",
                stats.staleRejected());
        out.printf(
                Locale.ROOT,
                "  acquisitions: %d in %d s (%.0f/s); handoff between processes (%d): median %.2f ms, p99 %.2f ms%n",
                stats.acquisitions(),
                seconds,
                stats.acquisitions() / (double) seconds,
                stats.handoffs(),
                stats.handoffPercentile(50) / 1000.0,
                stats.handoffPercentile(99) / 1000.0);
        if (takeover >= 0) {
            out.printf(
                    Locale.ROOT,
                    "  takeover after SIGKILL of a holder: %.2f s (TTL %s)%n",
                    takeover / 1e6,
                    Durations.format(ttl.toMillis()));
        }
        if (stats.lost() > 0) {
            out.println("  leases lost before their release (fencing guarded them): " + stats.lost());
        }
        return problems.isEmpty() && takeover >= 0 ? ExitCodes.OK : ExitCodes.SOFTWARE;
    }

    private Process startWorker(int id) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(
                java.toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                DlockMain.class.getName(),
                "worker",
                "--redis",
                redis.uri(),
                "--prefix",
                redis.prefix,
                "--name",
                NAME,
                "--id",
                Integer.toString(id),
                "--ttl",
                ttl.toMillis() + "ms"));
        if (redis.verbose) {
            command.add("--verbose"); // the workers' stderr is the demo's
        }
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = in.readLine()) != null) {
                            stats.onLine(line);
                        }
                    } catch (IOException | RuntimeException e) {
                        // the worker died (the kill does this on purpose)
                    }
                },
                "demo-worker-" + id);
        reader.setDaemon(true);
        reader.start();
        readers.add(reader);
        return process;
    }

    private void stopWorkers() throws InterruptedException {
        for (Process process : processes) {
            if (process.isAlive()) {
                send(process, "stop");
            }
        }
        for (Process process : processes) {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        for (Thread reader : readers) {
            reader.join(5000);
        }
    }

    private static void send(Process process, String line) {
        try {
            Writer in = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            in.write(line + "\n");
            in.flush();
        } catch (IOException e) {
            // the worker is gone already
        }
    }

    private static long countKeys(RedisCommands<String, String> commands, String pattern) {
        long count = 0;
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page =
                    commands.scan(cursor, ScanArgs.Builder.matches(pattern).limit(500));
            count += page.getKeys().size();
            cursor = page;
        } while (!cursor.isFinished());
        return count;
    }

    private static long parse(String value) {
        return value == null ? 0 : Long.parseLong(value);
    }
}
