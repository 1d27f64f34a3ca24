package dev.dlock.verify;

import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What a {@link Script} works with: the scenario's lock names, clients (direct, behind a proxy of their own, or on
 * Redlock nodes the stage starts), actors that record the history, the lock server's raw connection and admin view,
 * and the record of the faults it injects. Everything it opens is closed with it, last opened first. Used by the
 * script's thread (actors run their own calls).
 */
final class ScriptStage implements AutoCloseable {

    private final RunSettings run;
    private final Connections connections;
    private final Scenario scenario;
    private final String lockUri;
    private final History history;
    private final Map<String, FencedResource> resources;
    private final RedisCommands<String, String> resourceRedis;
    private final Random random;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final List<FaultInjector.Injected> faults = new ArrayList<>();
    private final LockClient direct;
    private final RedisClient raw;
    private final RedisCommands<String, String> lockRedis;

    ScriptStage(
            RunSettings run,
            Connections connections,
            Scenario scenario,
            String lockUri,
            History history,
            Map<String, FencedResource> resources,
            RedisCommands<String, String> resourceRedis) {
        this.run = run;
        this.connections = connections;
        this.scenario = scenario;
        this.lockUri = lockUri;
        this.history = history;
        this.resources = resources;
        this.resourceRedis = resourceRedis;
        this.random = new Random(run.seed() * 31 + scenario.name().hashCode());
        this.direct = connections.client(lockUri, null, null);
        opened.add(direct);
        this.raw = RedisClient.create(Connections.withTimeout(lockUri, Duration.ofSeconds(10)));
        opened.add(raw::shutdown);
        StatefulRedisConnection<String, String> connection = raw.connect();
        opened.add(connection);
        this.lockRedis = connection.sync();
    }

    Duration ttl() {
        return run.ttl();
    }

    Random random() {
        return random;
    }

    /** The scenario's {@code i}-th lock name. */
    String name(int i) {
        return scenario.lockNames().get(i);
    }

    /** The run's key prefix (the lock keys are {@code <prefix>:{<name>}...}). */
    String keyPrefix() {
        return run.keyPrefix();
    }

    /** A client of its own on the lock server; {@code unsafeControl} as for {@link Connections#client}. */
    LockClient client(Duration lease, String unsafeControl) {
        return opened(connections.client(lockUri, lease, unsafeControl));
    }

    /** A client of its own that reaches the lock server through {@code proxy}. */
    LockClient client(TcpProxy proxy, Duration lease, String unsafeControl) {
        return opened(connections.client(Connections.viaProxy(lockUri, proxy.port()), lease, unsafeControl));
    }

    /** A Redlock client on {@code nodes}. */
    LockClient redlock(List<String> nodes, Duration lease, String unsafeControl) {
        return opened(connections.redlock(nodes, lease, unsafeControl));
    }

    /** A new proxy in front of the lock server. */
    TcpProxy proxy() throws java.io.IOException {
        return proxyTo(lockUri);
    }

    /** A new proxy in front of the server at {@code uri}. */
    TcpProxy proxyTo(String uri) throws java.io.IOException {
        return opened(new TcpProxy(Connections.host(uri), Connections.port(uri)));
    }

    /** A redis-server of the scenario's own, without persistence (a Redlock node), removed with the stage. */
    RedisServer server() {
        return opened(RedisServer.builder().aof(false).start());
    }

    /** An actor that records its calls in the scenario's history. */
    ScriptActor actor(String label, Duration clientLease) {
        return opened(new ScriptActor(
                label,
                (clientLease != null ? clientLease : run.ttl()).toNanos(),
                history,
                scenario.name(),
                run,
                resources::get,
                resourceRedis));
    }

    /** Opens each client's pub/sub connection before the script times anything to its waits ({@link FirstWaits}). */
    void warm(LockClient... clients) throws Exception {
        FirstWaits.open(direct, scenario.name() + "-warm", List.of(clients));
    }

    /** The admin view of a direct client of the lock server. */
    LockAdmin admin() {
        return direct.admin();
    }

    /** A raw connection to the lock server. */
    RedisCommands<String, String> lockRedis() {
        return lockRedis;
    }

    /**
     * Records a fault the script brought about, from {@code start} to {@code heal}; the lock must be taken again within
     * TTL + 1 s of the heal (checker 5), and the wait checks are excused from the start to that bound.
     */
    void fault(Fault fault, long start, long heal) {
        FaultInjector.Injected done = new FaultInjector.Injected(fault, start, heal, heal, null);
        faults.add(done);
        ScenarioRunner.record(history, scenario, done);
    }

    List<FaultInjector.Injected> faults() {
        return List.copyOf(faults);
    }

    /**
     * Waits until {@code condition} holds, looking every 2 ms.
     *
     * @throws IllegalStateException naming {@code what} if it does not within {@code max}
     */
    static void await(BooleanSupplier condition, Duration max, String what) {
        long until = System.nanoTime() + max.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new IllegalStateException("script step timed out after " + max.toMillis() + " ms: " + what);
            }
            sleep(Duration.ofMillis(2));
        }
    }

    /** The value of {@code future}, waiting at most {@code max}. */
    static <T> T await(CompletableFuture<T> future, Duration max, String what) throws Exception {
        try {
            return future.get(max.toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("script step timed out after " + max.toMillis() + " ms: " + what, e);
        }
    }

    static void sleep(Duration duration) {
        FaultInjector.sleep(duration);
    }

    /** Sleeps until {@code nanoTime} reaches {@code instant}. */
    static void sleepUntil(long instant) {
        long left = instant - System.nanoTime();
        if (left > 0) {
            sleep(Duration.ofNanos(left));
        }
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    @Override
    public void close() {
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception ignored) {
                // best effort: the scenario's result is decided by its history
            }
        }
    }
}
