package dev.dlock.verify;

import dev.dlock.testkit.RedisServer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The torture run behind {@code dlock verify}: runs every scenario and negative control and checks the histories.
 *
 * <pre>{@code
 * Report report = Verify.run(Options.parse("--seed", "42"));
 * System.out.print(report.text());
 * System.exit(report.exitCode());
 * }</pre>
 *
 * <p>Without {@code --redis} it starts two private {@code redis-server}s on loopback (one with AOF, {@code appendfsync
 * always}, one without persistence) and removes them at the end. With {@code --redis} it uses only keys under a
 * prefix unique to the run, deletes them afterwards, never flushes, and never signals the server. Not thread-safe:
 * one run at a time per JVM is intended.
 */
public final class Verify {

    /**
     * Kept strongly reachable: JUL forgets the level of a logger that was garbage collected. dlock's own logger too:
     * the run injects the faults its warnings report (lost leases, failed renewals), and the histories and checkers,
     * not the log, judge the outcome.
     */
    private static final java.util.logging.Logger[] QUIET = {
        java.util.logging.Logger.getLogger("io.lettuce"),
        java.util.logging.Logger.getLogger("io.netty"),
        java.util.logging.Logger.getLogger("dev.dlock")
    };

    private Verify() {}

    /** Reconnect chatter and dlock's fault warnings would bury the one-screen report; faults cause plenty of both. */
    static void quietClientLogs() {
        for (java.util.logging.Logger logger : QUIET) {
            logger.setLevel(java.util.logging.Level.OFF);
        }
    }

    /**
     * Runs the torture run.
     *
     * @param options the options
     * @return the report
     * @throws Exception if the run itself cannot be set up (a server does not start, a directory cannot be written)
     */
    public static Report run(Options options) throws Exception {
        return run(options, chosen(options.only(), options.longTier()), options.lanes());
    }

    /** As {@link #chosen(List, boolean)} for the quick tier. */
    static List<Scenario> chosen(List<String> names) {
        return chosen(names, false);
    }

    /**
     * The scenarios named, in the run's order (any scenario, whatever the tier); the tier's scenarios when none is
     * named.
     *
     * @throws IllegalArgumentException naming a scenario that does not exist
     */
    static List<Scenario> chosen(List<String> names, boolean longTier) {
        List<Scenario> all = Scenario.all();
        if (names.isEmpty()) {
            return Scenario.of(longTier);
        }
        List<String> known = all.stream().map(Scenario::name).toList();
        for (String name : names) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException(
                        "--only: no scenario '" + name + "'; the scenarios are " + String.join(", ", known));
            }
        }
        return all.stream().filter(s -> names.contains(s.name())).toList();
    }

    /** Runs only {@code scenarios} (tests use a subset), one after another. */
    static Report run(Options options, List<Scenario> scenarios) throws Exception {
        return run(options, scenarios, 1);
    }

    /**
     * Runs only {@code scenarios} in {@code lanes} lanes side by side (the quick tier's IT uses two). The scenarios
     * take turns: the first to lane 0, the next to lane 1 and so on (on the user's Redis, those that need server faults
     * are skipped at once and take no turn), so each lane keeps the run's order; each lane has servers (unless {@code
     * --redis}), a key prefix and a runner of its own, as if it were a run of its own, and the report lists the
     * scenarios in the list's order. A scenario's choices depend on the seed and its name only, not on its lane.
     *
     * @throws Exception the first lane's failure to set up, after every lane has ended and closed its servers
     */
    static Report run(Options options, List<Scenario> scenarios, int lanes) throws Exception {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be at least 1, was " + lanes);
        }
        Files.createDirectories(options.outDir());
        quietClientLogs();
        List<List<Scenario>> split = new ArrayList<>();
        for (int lane = 0; lane < Math.min(lanes, Math.max(1, scenarios.size())); lane++) {
            split.add(new ArrayList<>());
        }
        int next = 0;
        for (Scenario scenario : scenarios) {
            if (options.redisUri() != null && scenario.needsServerFaults()) {
                split.get(0).add(scenario); // skipped at once on the user's Redis: no lane's turn
            } else {
                split.get(next++ % split.size()).add(scenario);
            }
        }
        List<Lane> done = split.size() == 1 ? List.of(lane(options, split.get(0))) : sideBySide(options, split);
        Map<String, ScenarioResult> byName = new HashMap<>();
        done.forEach(lane -> lane.results().forEach(r -> byName.put(r.scenario().name(), r)));
        List<ScenarioResult> results =
                scenarios.stream().map(s -> byName.get(s.name())).toList();
        String header = String.format(
                "dlock verify: seed %d, %s tier, TTL %d ms, %s transport, %s%s",
                options.seed(),
                options.longTier() ? "long" : "quick",
                ttl(options).toMillis(),
                options.transport().label(),
                done.get(0).where(),
                done.size() == 1
                        ? ""
                        : "; " + done.size() + " lanes side by side, each with "
                                + (options.redisUri() == null ? "servers" : "a key prefix") + " of its own");
        return new Report(header, results, options.outDir().toAbsolutePath());
    }

    /** What one lane ran on, and its results in its order. */
    private record Lane(String where, List<ScenarioResult> results) {}

    private static List<Lane> sideBySide(Options options, List<List<Scenario>> split) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(split.size(), runnable -> {
            Thread thread = new Thread(runnable, "dlock-verify-lane");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<Lane>> futures = new ArrayList<>();
            for (List<Scenario> part : split) {
                futures.add(pool.submit(() -> lane(options, part)));
            }
            List<Lane> lanes = new ArrayList<>();
            Exception failure = null;
            for (Future<Lane> future : futures) {
                try {
                    lanes.add(future.get());
                } catch (ExecutionException e) {
                    Exception cause = e.getCause() instanceof Exception ex ? ex : e;
                    if (failure == null) {
                        failure = cause;
                    } else {
                        failure.addSuppressed(cause);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
            return lanes;
        } finally {
            pool.shutdownNow(); // interrupted while waiting: the lanes stop too
        }
    }

    private static Duration ttl(Options options) {
        return Duration.ofMillis(options.longTier() ? 2000 : 1000);
    }

    /** One lane: its own servers (unless {@code --redis}), key prefix and runner; the scenarios one after another. */
    private static Lane lane(Options options, List<Scenario> scenarios) throws Exception {
        Duration ttl = ttl(options);
        String runId = Long.toString(options.seed()) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        RedisServer aof = null;
        RedisServer volatileServer = null;
        try {
            String uri = options.redisUri();
            String where;
            if (uri == null) {
                aof = RedisServer.builder().aof(true).start();
                volatileServer = RedisServer.builder().aof(false).start();
                uri = aof.uri();
                where = "private redis-server " + aof.version() + " (AOF always, and one without persistence)";
            } else {
                where = "user's Redis (server faults skipped, this run never signals it)";
            }
            RunSettings settings = new RunSettings(
                    uri,
                    aof,
                    volatileServer,
                    ttl,
                    ttl.multipliedBy(2),
                    ttl.dividedBy(10),
                    options.seed(),
                    options.longTier() ? 3 : 1,
                    options.longTier() ? 60 : 25,
                    "dlock-verify-" + runId,
                    "dlock-verify-" + runId,
                    options.outDir().toAbsolutePath(),
                    ttl.multipliedBy(30).plusSeconds(30),
                    options.transport());
            ScenarioRunner runner = new ScenarioRunner(settings);
            List<ScenarioResult> results = new ArrayList<>();
            for (Scenario scenario : scenarios) {
                results.add(runner.run(scenario));
            }
            return new Lane(where, results);
        } finally {
            if (aof != null) {
                aof.close();
            }
            if (volatileServer != null) {
                volatileServer.close();
            }
        }
    }
}
