package dev.dlock.verify;

import dev.dlock.LockClient;
import dev.dlock.internal.LockAdmin;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisServer;
import dev.dlock.verify.Violation.Checker;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Runs one scenario: starts the holder JVMs, the proxy and the in-process workers, injects the faults when the acquire
 * count reaches their scripted values, stops the workload, reads the histories and the resource back and runs the five
 * checkers. Used by one thread.
 */
final class ScenarioRunner {

    private final RunSettings run;

    ScenarioRunner(RunSettings run) {
        this.run = run;
    }

    ScenarioResult run(Scenario scenario) throws Exception {
        long began = System.nanoTime();
        Path dir = run.outDir().resolve(scenario.name());
        Files.createDirectories(dir);
        try (var old = Files.list(dir)) {
            // a rerun with the same seed writes to the same directory: never mix two runs' histories
            for (Path file : old.toList()) {
                Files.delete(file);
            }
        }
        if (scenario.needsServerFaults() && run.server() == null) {
            return new ScenarioResult(
                    scenario,
                    0,
                    0,
                    0,
                    List.of(),
                    List.of(),
                    dir,
                    0,
                    "needs server faults; --redis points at a server this run did not start");
        }
        RedisServer lockServer = scenario.noPersistence() ? run.noPersistenceServer() : run.server();
        String lockUri = lockServer != null ? lockServer.uri() : run.redisUri();
        String resourceUri = run.redisUri(); // the resource never lives on the server without persistence
        String resourceBase = run.keyPrefix() + ":res:{" + scenario.name() + "}";
        FencedResource resource = new FencedResource(resourceBase, scenario.fenceCheck());
        AtomicLong acquires = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<AutoCloseable> closeLast = new ArrayList<>();
        List<JvmProcess> holders = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<FaultInjector.Injected> injected = new ArrayList<>();
        List<Violation> stalls = new ArrayList<>();
        RedisClient raw = RedisClient.create(withTimeout(resourceUri, run.commandTimeout()));
        RedisClient adminClient = RedisClient.create(withTimeout(lockUri, Duration.ofSeconds(10)));
        Path threadHistory = dir.resolve("threads.jsonl");
        try (TcpProxy proxy = new TcpProxy(host(lockUri), port(lockUri));
                History history = new History(threadHistory);
                StatefulRedisConnection<String, String> admin = adminClient.connect();
                StatefulRedisConnection<String, String> resourceAdmin = raw.connect()) {
            resource.delete(resourceAdmin.sync());
            for (int i = 1; i <= scenario.holderJvms(); i++) {
                holders.add(startHolder(scenario, "jvm" + i, lockUri, resourceUri, resourceBase, dir, i));
            }
            closeLast.addAll(holders);
            for (JvmProcess holder : holders) {
                holder.awaitLine("READY", Duration.ofSeconds(60));
            }
            LockClient direct = client(lockUri);
            closeLast.add(direct);
            LockClient proxied = scenario.isControl() ? null : client(viaProxy(lockUri, proxy.port()));
            if (proxied != null) {
                closeLast.add(proxied);
            }
            String[][] plan = scenario.isControl()
                    ? new String[][] {{"t1", "d"}, {"t2", "d"}, {"t3", "d"}, {"t4", "d"}}
                    : new String[][] {{"t1", "d"}, {"t2", "a"}, {"p1", "p"}};
            int index = 0;
            Worker proxiedWorker = null;
            BlockingQueue<String> proxiedSays = new LinkedBlockingQueue<>();
            for (String[] worker : plan) {
                StatefulRedisConnection<String, String> connection = raw.connect();
                closeLast.add(connection);
                Worker.Spec spec = spec(scenario, worker[0], worker[1].equals("a"), index++);
                boolean viaProxy = worker[1].equals("p");
                Worker body = new Worker(
                        spec,
                        viaProxy ? proxied : direct,
                        connection.sync(),
                        resource,
                        history,
                        acquires,
                        stop,
                        viaProxy ? proxiedSays::add : line -> {});
                if (viaProxy) {
                    proxiedWorker = body;
                }
                Thread thread = new Thread(body, "dlock-verify-" + scenario.name() + "-" + worker[0]);
                thread.setDaemon(true);
                threads.add(thread);
            }
            threads.forEach(Thread::start);

            // a killed holder JVM is replaced, so every round of the long tier finds a holder to signal
            Supplier<JvmProcess> replacement = () -> {
                int i = holders.size() + 1;
                JvmProcess fresh = startHolder(scenario, "jvm" + i, lockUri, resourceUri, resourceBase, dir, i);
                holders.add(fresh);
                closeLast.add(fresh);
                fresh.awaitLine("READY", Duration.ofSeconds(60));
                return fresh;
            };
            FaultInjector injector = new FaultInjector(
                    lockServer,
                    admin.sync(),
                    new FaultInjector.Proxied(proxy, proxiedWorker, proxiedSays),
                    holders,
                    replacement,
                    run.clientName(),
                    run.ttl());
            long lastTrigger = 0;
            long livenessUntil = System.nanoTime();
            for (long[] step : schedule(scenario)) {
                Fault fault = Fault.values()[(int) step[0]];
                if (!awaitAcquires(acquires, step[1])) {
                    stalls.add(new Violation(
                            Checker.LIVENESS,
                            "workload stalled at " + acquires.get() + " acquires before fault " + fault.label()
                                    + " (due at " + step[1] + ")"));
                    break;
                }
                FaultInjector.Injected done = injector.inject(fault);
                injected.add(done);
                lastTrigger = acquires.get();
                if (done.skipped() == null) {
                    record(history, scenario, done);
                    livenessUntil = done.livenessFrom() + run.ttl().toNanos() + 1_500_000_000L;
                }
            }
            long wanted = lastTrigger + run.tailAcquires();
            if (!awaitAcquires(acquires, wanted)) {
                stalls.add(new Violation(
                        Checker.LIVENESS,
                        "workload stalled at " + acquires.get() + " acquires, " + wanted
                                + " wanted at the end of the scenario"));
            }
            while (System.nanoTime() < livenessUntil) {
                FaultInjector.sleep(Duration.ofMillis(50));
            }
            stop.set(true);
            for (JvmProcess holder : holders) {
                if (holder.isAlive()) {
                    holder.send("stop");
                }
            }
            for (Thread thread : threads) {
                thread.join(run.ttl()
                        .multipliedBy(3)
                        .plus(run.commandTimeout().multipliedBy(3))
                        .toMillis());
            }
            for (JvmProcess holder : holders) {
                if (holder.isAlive()) {
                    holder.waitFor(Duration.ofSeconds(30));
                }
            }
            FencedResource.Snapshot snapshot = resource.snapshot(resourceAdmin.sync());
            List<Path> files = new ArrayList<>(List.of(threadHistory));
            for (int i = 1; i <= holders.size(); i++) {
                files.add(dir.resolve("jvm" + i + ".jsonl"));
            }
            List<Op> ops = History.read(files.stream().filter(Files::exists).toList());
            List<Violation> violations = new ArrayList<>(stalls);
            violations.addAll(MutualExclusionChecker.check(ops));
            violations.addAll(FenceChecker.check(ops, snapshot));
            violations.addAll(LostUpdateChecker.check(ops, snapshot.elements()));
            violations.addAll(TokenOrderChecker.check(ops));
            violations.addAll(LivenessChecker.check(ops, run.ttl().toNanos()));
            writeViolations(dir, violations);
            cleanUp(direct, resourceAdmin, resource, scenario);
            int operations = (int) ops.stream().filter(op -> !op.is(Op.FAULT)).count();
            int acquired = (int)
                    ops.stream().filter(op -> op.is(Op.ACQUIRE) && op.ok()).count();
            int rejected = (int) ops.stream()
                    .filter(op -> FenceChecker.REJECTED.equals(op.detail()))
                    .count();
            return new ScenarioResult(
                    scenario,
                    operations,
                    acquired,
                    rejected,
                    injected,
                    violations,
                    dir,
                    (System.nanoTime() - began) / 1_000_000,
                    null);
        } finally {
            stop.set(true);
            for (int i = closeLast.size() - 1; i >= 0; i--) {
                try {
                    closeLast.get(i).close();
                } catch (Exception ignored) {
                    // best effort: the scenario's result is already decided
                }
            }
            raw.shutdown();
            adminClient.shutdown();
        }
    }

    /** Fault index and acquire count, in order; the counts come from the seed, so a seed reproduces the schedule. */
    List<long[]> schedule(Scenario scenario) {
        Random random = new Random(run.seed() * 31 + scenario.name().hashCode());
        List<long[]> steps = new ArrayList<>();
        long at = 6;
        for (int round = 0; round < run.rounds(); round++) {
            for (Fault fault : scenario.faults()) {
                at += 6 + random.nextInt(6);
                steps.add(new long[] {fault.ordinal(), at});
            }
        }
        return steps;
    }

    private Worker.Spec spec(Scenario scenario, String client, boolean async, int index) {
        return new Worker.Spec(
                scenario.name(),
                client,
                scenario.variant(),
                scenario.name(),
                run.keyPrefix(),
                run.ttl(),
                run.commandTimeout(),
                run.holdMax(),
                run.seed() * 1009 + index,
                async);
    }

    private JvmProcess startHolder(
            Scenario scenario,
            String client,
            String lockUri,
            String resourceUri,
            String resourceBase,
            Path dir,
            int index) {
        return JvmProcess.builder(HolderProcess.class)
                .jvmArgs("-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                .args(
                        lockUri,
                        resourceUri,
                        scenario.name(),
                        client,
                        scenario.name(),
                        resourceBase,
                        run.keyPrefix(),
                        run.clientName(),
                        Long.toString(run.ttl().toMillis()),
                        Long.toString(run.commandTimeout().toMillis()),
                        Long.toString(run.holdMax().toMillis()),
                        Long.toString(run.seed() * 1009 + 100 + index),
                        dir.resolve(client + ".jsonl").toString())
                .start();
    }

    private LockClient client(String uri) {
        return LockClient.builder()
                .redisUri(uri)
                .leaseTime(run.ttl())
                .keyPrefix(run.keyPrefix())
                .clientName(run.clientName())
                .commandTimeout(run.commandTimeout())
                .build();
    }

    private boolean awaitAcquires(AtomicLong acquires, long wanted) {
        long until = System.nanoTime() + run.maxScenario().toNanos();
        while (acquires.get() < wanted) {
            if (System.nanoTime() > until) {
                return false;
            }
            FaultInjector.sleep(Duration.ofMillis(5));
        }
        return true;
    }

    private static void record(History history, Scenario scenario, FaultInjector.Injected done) {
        Op op = new Op(
                scenario.name(),
                "nemesis",
                ProcessHandle.current().pid(),
                done.start(),
                Op.FAULT,
                done.start(),
                done.heal(),
                Op.OK,
                0,
                done.livenessFrom(),
                "",
                0,
                done.fault().label());
        history.invoked(op);
        history.completed(op);
    }

    private void cleanUp(
            LockClient lockClient,
            StatefulRedisConnection<String, String> resourceAdmin,
            FencedResource resource,
            Scenario scenario) {
        try {
            // every key of the lock (hash, fence, queue), named by the core's one key layout
            LockAdmin.of(lockClient).purge(scenario.name());
            resource.delete(resourceAdmin.sync());
        } catch (RuntimeException ignored) {
            // keys expire on their own (lock: TTL; queue: 5 s; fence: 7 days); the result stands
        }
    }

    private static void writeViolations(Path dir, List<Violation> violations) throws java.io.IOException {
        List<String> lines = violations.stream().map(Violation::toString).toList();
        Files.write(dir.resolve("violations.txt"), lines);
    }

    private static RedisURI withTimeout(String uri, Duration timeout) {
        RedisURI parsed = RedisURI.create(uri);
        parsed.setTimeout(timeout);
        return parsed;
    }

    private static String host(String uri) {
        return RedisURI.create(uri).getHost();
    }

    private static int port(String uri) {
        return RedisURI.create(uri).getPort();
    }

    /** The same URI (credentials, database) with the proxy's loopback address. */
    static String viaProxy(String uri, int proxyPort) {
        URI parsed = URI.create(uri);
        if (!"redis".equals(parsed.getScheme())) {
            throw new IllegalArgumentException("the proxy supports redis:// URIs only, not " + parsed.getScheme());
        }
        try {
            return new URI(
                            parsed.getScheme(),
                            parsed.getUserInfo(),
                            "127.0.0.1",
                            proxyPort,
                            parsed.getPath(),
                            parsed.getQuery(),
                            null)
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("cannot rewrite " + uri, e);
        }
    }
}
