package dev.dlock.verify;

import dev.dlock.LockClient;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisServer;
import dev.dlock.verify.Violation.Checker;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
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
    private final Connections connections;

    ScenarioRunner(RunSettings run) {
        this.run = run;
        this.connections = new Connections(run);
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
        if (scenario.script() != null) {
            return new ScriptedRun(run, connections).run(scenario, dir, began);
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
                    "needs server faults; --redis points at a server this run did not start",
                    List.of());
        }
        RedisServer lockServer = scenario.noPersistence() ? run.noPersistenceServer() : run.server();
        requireFit(scenario);
        List<AutoCloseable> closeLast = new ArrayList<>();
        // a failover scenario's locks live on a Sentinel deployment of its own, closed last
        FailoverFaults failover = scenario.failover() != null
                ? FailoverFaults.start(run.ttl(), scenario.failover().partition(), minorityName())
                : null;
        if (failover != null) {
            closeLast.add(failover);
        }
        int replicaAcks = scenario.failover() != null ? scenario.failover().replicaAcks() : 0;
        String lockUri = failover != null ? failover.uri() : lockServer != null ? lockServer.uri() : run.redisUri();
        String resourceUri = run.redisUri(); // the resource never lives on the server without persistence
        Map<String, FencedResource> resources = new LinkedHashMap<>();
        for (String name : scenario.lockNames()) {
            resources.put(name, new FencedResource(resourceBase(name), scenario.fenceCheck()));
        }
        AtomicLong acquires = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        List<JvmProcess> holders = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        Map<String, Throwable> died = new ConcurrentHashMap<>();
        List<FaultInjector.Injected> injected = new ArrayList<>();
        List<Violation> stalls = new ArrayList<>();
        RedisClient raw = RedisClient.create(Connections.withTimeout(resourceUri, run.commandTimeout()));
        RedisClient adminClient = RedisClient.create(Connections.withTimeout(lockUri, Duration.ofSeconds(10)));
        Path threadHistory = dir.resolve("threads.jsonl");
        // no proxies in a failover scenario: its faults act on the Sentinel deployment, not on a connection
        try (TcpProxy proxy =
                        failover == null ? new TcpProxy(Connections.host(lockUri), Connections.port(lockUri)) : null;
                TcpProxy lagged =
                        failover == null ? new TcpProxy(Connections.host(lockUri), Connections.port(lockUri)) : null;
                History history = new History(threadHistory);
                StatefulRedisConnection<String, String> admin = adminClient.connect();
                StatefulRedisConnection<String, String> resourceAdmin = raw.connect()) {
            if (lagged != null) {
                lagged.pubsubLag(run.ttl().multipliedBy(6).dividedBy(10));
            }
            resources.values().forEach(r -> r.delete(resourceAdmin.sync()));
            for (int i = 1; i <= scenario.holderJvms(); i++) {
                holders.add(startHolder(scenario, "jvm" + i, lockUri, resourceUri, dir, i));
            }
            closeLast.addAll(holders);
            for (JvmProcess holder : holders) {
                holder.awaitLine("READY", Duration.ofSeconds(60));
            }
            LockClient direct = connections.client(lockUri, null, null, replicaAcks);
            closeLast.add(direct);
            boolean anyProxied = scenario.workers().stream().anyMatch(c -> c.via() == Scenario.Via.PROXY);
            LockClient proxied =
                    anyProxied ? connections.client(Connections.viaProxy(lockUri, proxy.port()), null, null) : null;
            if (proxied != null) {
                closeLast.add(proxied);
            }
            List<LockClient> inThisJvm = new ArrayList<>(List.of(direct));
            if (proxied != null) {
                inThisJvm.add(proxied);
            }
            int index = 0;
            Worker proxiedWorker = null;
            BlockingQueue<String> proxiedSays = new LinkedBlockingQueue<>();
            for (Scenario.Client worker : scenario.workers()) {
                StatefulRedisConnection<String, String> connection = raw.connect();
                closeLast.add(connection);
                boolean viaProxy = worker.via() == Scenario.Via.PROXY;
                boolean stalling = viaProxy || worker.stalls();
                LockClient lockClient = switch (worker.via()) {
                    case DIRECT -> direct;
                    case PROXY -> proxied;
                    case OWN -> connections.client(lockUri, worker.lease(), worker.unsafeControl(), replicaAcks);
                    case LAGGED ->
                        connections.client(
                                Connections.viaProxy(lockUri, lagged.port()), worker.lease(), worker.unsafeControl());
                    case MINORITY ->
                        connections.client(
                                failover.minorityUri(),
                                worker.lease(),
                                worker.unsafeControl(),
                                replicaAcks,
                                minorityName());
                };
                if (lockClient != direct && lockClient != proxied) {
                    closeLast.add(lockClient);
                    inThisJvm.add(lockClient);
                }
                Worker body = new Worker(
                        spec(scenario, worker, index++),
                        lockClient,
                        connection.sync(),
                        resources::get,
                        history,
                        acquires,
                        stop,
                        stalling ? proxiedSays::add : line -> {});
                if (stalling) {
                    proxiedWorker = body;
                }
                Thread thread = new Thread(body, "dlock-verify-" + scenario.name() + "-" + worker.label());
                thread.setDaemon(true);
                // a worker that dies of an Error would otherwise only show as a quieter history
                thread.setUncaughtExceptionHandler((t, e) -> died.put(worker.label(), e));
                threads.add(thread);
            }
            try (LockClient warmer = connections.client(lockUri, null, null, replicaAcks)) {
                FirstWaits.open(warmer, scenario.name() + "-warm", inThisJvm);
            }
            threads.forEach(Thread::start);

            // a killed holder JVM is replaced, so every round of the long tier finds a holder to signal
            Supplier<JvmProcess> replacement = () -> {
                int i = holders.size() + 1;
                JvmProcess fresh = startHolder(scenario, "jvm" + i, lockUri, resourceUri, dir, i);
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
                    run.ttl(),
                    run.keyPrefix(),
                    failover);
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
                if (failover != null) {
                    failover.takeUnscheduled().forEach(seen -> record(history, scenario, seen));
                }
                if (done.skipped() == null) {
                    record(history, scenario, done);
                    livenessUntil = done.livenessFrom() + run.ttl().toNanos() + 1_500_000_000L;
                }
            }
            long wanted = lastTrigger + Math.max(run.tailAcquires(), scenario.minAcquires());
            if (!awaitAcquires(acquires, wanted)) {
                stalls.add(new Violation(
                        Checker.LIVENESS,
                        "workload stalled at " + acquires.get() + " acquires, " + wanted
                                + " wanted at the end of the scenario"));
            }
            while (System.nanoTime() < livenessUntil) {
                FaultInjector.sleep(Duration.ofMillis(50));
            }
            if (failover != null && failover.lookForUnscheduled()) { // it waits TTL + 1.5 s past the heal
                failover.takeUnscheduled().forEach(seen -> record(history, scenario, seen));
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
                if (thread.isAlive()) {
                    stalls.add(new Violation(
                            Checker.LIVENESS, thread.getName() + " did not stop: " + stackTop(thread.getStackTrace())));
                }
            }
            died.forEach((label, e) -> stalls.add(new Violation(Checker.LIVENESS, "worker " + label + " died: " + e)));
            for (JvmProcess holder : holders) {
                if (holder.isAlive()) {
                    holder.waitFor(Duration.ofSeconds(30));
                }
            }
            Map<String, FencedResource.Snapshot> snapshots = new LinkedHashMap<>();
            resources.forEach((name, resource) -> snapshots.put(name, resource.snapshot(resourceAdmin.sync())));
            List<Path> files = new ArrayList<>(List.of(threadHistory));
            for (int i = 1; i <= holders.size(); i++) {
                files.add(dir.resolve("jvm" + i + ".jsonl"));
            }
            List<Op> ops = History.read(files.stream().filter(Files::exists).toList());
            List<Violation> violations = new ArrayList<>(stalls);
            violations.addAll(
                    Checks.run(ops, snapshots, run.ttl().toNanos(), scenario.capacity(), scenario.readWrite()));
            writeViolations(dir, violations);
            cleanUp(direct, resourceAdmin, resources, scenario);
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
                    null,
                    failover != null
                            ? failover.notes()
                            : scenario.readWrite() ? ReadWriteChecker.peakNotes(scenario.lockNames(), ops) : List.of());
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

    /**
     * A failover scenario runs in-process clients on its Sentinel deployment only: no holder JVMs, no proxies of the run
     * (a partition scenario's proxies are its deployment's); a minority client needs a partition scenario.
     */
    private static void requireFit(Scenario scenario) {
        if (scenario.failover() != null
                && (scenario.holderJvms() > 0
                        || scenario.workers().stream()
                                .anyMatch(c -> c.via() == Scenario.Via.PROXY || c.via() == Scenario.Via.LAGGED))) {
            throw new IllegalStateException(scenario.name() + ": a failover scenario has no holder JVMs or proxies");
        }
        boolean minority = scenario.workers().stream().anyMatch(c -> c.via() == Scenario.Via.MINORITY);
        if (minority && (scenario.failover() == null || !scenario.failover().partition())) {
            throw new IllegalStateException(scenario.name() + ": a minority client needs a partition scenario");
        }
    }

    /** The {@code CLIENT SETNAME} of a partition scenario's minority client, by which the partition spares it. */
    private String minorityName() {
        return run.clientName() + "-minority";
    }

    private String resourceBase(String lockName) {
        return run.keyPrefix() + ":res:{" + lockName + "}";
    }

    private static String stackTop(StackTraceElement[] stack) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < Math.min(6, stack.length); i++) {
            out.append(i == 0 ? "" : " < ").append(stack[i]);
        }
        return out.toString();
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

    private Worker.Spec spec(Scenario scenario, Scenario.Client worker, int index) {
        return new Worker.Spec(
                scenario.name(),
                worker.label(),
                scenario.variant(),
                worker.names().stream().map(i -> scenario.lockNames().get(i)).toList(),
                run.keyPrefix(),
                run.ttl(),
                worker.lease() != null ? worker.lease() : run.ttl(),
                run.commandTimeout(),
                run.holdMax(),
                run.seed() * 1009 + index,
                worker.style(),
                scenario.failover() != null && scenario.failover().replicaAcks() > 0
                        ? connections.replicaAckTimeout()
                        : Duration.ZERO,
                scenario.permits());
    }

    private JvmProcess startHolder(
            Scenario scenario, String client, String lockUri, String resourceUri, Path dir, int index) {
        return JvmProcess.builder(HolderProcess.class)
                .jvmArgs("-Xmx96m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
                .args(
                        lockUri,
                        resourceUri,
                        scenario.name(),
                        client,
                        String.join(",", scenario.lockNames()),
                        run.keyPrefix() + ":res:",
                        run.keyPrefix(),
                        run.clientName(),
                        Long.toString(run.ttl().toMillis()),
                        Long.toString(run.commandTimeout().toMillis()),
                        Long.toString(run.holdMax().toMillis()),
                        Long.toString(run.seed() * 1009 + 100 + index),
                        dir.resolve(client + ".jsonl").toString(),
                        run.transport().label())
                .start();
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

    static void record(History history, Scenario scenario, FaultInjector.Injected done) {
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
                done.fault().label(),
                "",
                0,
                "");
        history.invoked(op);
        history.completed(op);
    }

    private void cleanUp(
            LockClient lockClient,
            StatefulRedisConnection<String, String> resourceAdmin,
            Map<String, FencedResource> resources,
            Scenario scenario) {
        try {
            // every key of the lock (hash, fence, queue), named by the core's one key layout
            for (String name : scenario.lockNames()) {
                lockClient.admin().purge(name);
            }
            resources.values().forEach(r -> r.delete(resourceAdmin.sync()));
        } catch (RuntimeException ignored) {
            // keys expire on their own (lock: TTL; queue: 5 s; fence: 7 days); the result stands
        }
    }

    static void writeViolations(Path dir, List<Violation> violations) throws java.io.IOException {
        List<String> lines = violations.stream().map(Violation::toString).toList();
        Files.write(dir.resolve("violations.txt"), lines);
    }
}
