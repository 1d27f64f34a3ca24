package dev.dlock.verify;

import dev.dlock.LockClient;
import dev.dlock.verify.Violation.Checker;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a scripted scenario ({@link Scenario#script()}): its rounds on a {@link ScriptStage}, then the checkers on the
 * history, as {@link ScenarioRunner} does for a workload. A round that cannot be run (a step timed out) is reported as a
 * liveness violation, so a script that no longer reaches its interleaving fails the run instead of passing quietly.
 */
final class ScriptedRun {

    private final RunSettings run;
    private final Connections connections;

    ScriptedRun(RunSettings run, Connections connections) {
        this.run = run;
        this.connections = connections;
    }

    ScenarioResult run(Scenario scenario, Path dir, long began) throws Exception {
        String lockUri = run.redisUri();
        Map<String, FencedResource> resources = new LinkedHashMap<>();
        for (String name : scenario.lockNames()) {
            resources.put(name, new FencedResource(run.keyPrefix() + ":res:{" + name + "}", true));
        }
        Path threadHistory = dir.resolve("threads.jsonl");
        RedisClient raw = RedisClient.create(Connections.withTimeout(run.redisUri(), run.commandTimeout()));
        List<Violation> stalls = new ArrayList<>();
        List<FaultInjector.Injected> faults;
        try (StatefulRedisConnection<String, String> resourceAdmin = raw.connect();
                StatefulRedisConnection<String, String> actorsResource = raw.connect()) {
            resources.values().forEach(r -> r.delete(resourceAdmin.sync()));
            try (History history = new History(threadHistory);
                    ScriptStage stage = new ScriptStage(
                            run, connections, scenario, lockUri, history, resources, actorsResource.sync())) {
                for (int round = 0; round < scenario.script().rounds() * run.rounds(); round++) {
                    try {
                        scenario.script().round(stage, round);
                    } catch (Exception e) {
                        stalls.add(new Violation(
                                Checker.LIVENESS, "script round " + round + " could not be run: " + e.getMessage()));
                        break;
                    }
                }
                faults = stage.faults();
            }
            List<Op> ops = History.read(List.of(threadHistory));
            Map<String, FencedResource.Snapshot> snapshots = new LinkedHashMap<>();
            resources.forEach((name, resource) -> snapshots.put(name, resource.snapshot(resourceAdmin.sync())));
            List<Violation> violations = new ArrayList<>(stalls);
            violations.addAll(
                    Checks.run(ops, snapshots, run.ttl().toNanos(), scenario.capacity(), scenario.readWrite()));
            ScenarioRunner.writeViolations(dir, violations);
            purge(scenario, lockUri);
            resources.values().forEach(r -> r.delete(resourceAdmin.sync()));
            int operations = (int) ops.stream()
                    .filter(op -> !op.is(Op.FAULT) && !op.is(Op.EXPIRY))
                    .count();
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
                    faults,
                    violations,
                    dir,
                    (System.nanoTime() - began) / 1_000_000,
                    null,
                    List.of());
        } finally {
            raw.shutdown();
        }
    }

    private void purge(Scenario scenario, String lockUri) {
        try (LockClient client = connections.client(lockUri, null, null)) {
            for (String name : scenario.lockNames()) {
                client.admin().purge(name);
            }
        } catch (RuntimeException e) {
            // keys expire on their own; the result stands
        }
    }
}
