package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;

/** A lock's wait queue in Redis ({@code dlock:{name}:q}, one entry per waiting client), as the ITs wait on it. */
final class WaitQueue {
    private WaitQueue() {}

    /** Polls the queue of lock {@code name} until it holds {@code clients} entries; fails after a scaled 10 s. */
    static void awaitSize(RedisServer server, String name, long clients) throws InterruptedException {
        awaitSize(server::command, name, clients);
    }

    /** As {@link #awaitSize(RedisServer, String, long)}, on the node that serves the queue. */
    static void awaitSize(ContractRedis redis, String name, long clients) throws InterruptedException {
        awaitSize(redis::command, name, clients);
    }

    /** As {@link #awaitSize(ContractRedis, String, long)}, for a shared lock's queue ({@code dlock:{name}:sq}). */
    static void awaitShared(ContractRedis redis, String name, long waiters) throws InterruptedException {
        awaitSize(redis::command, name, waiters, ":sq");
    }

    private static void awaitSize(java.util.function.Function<String[], Object> redis, String name, long clients)
            throws InterruptedException {
        awaitSize(redis, name, clients, ":q");
    }

    private static void awaitSize(
            java.util.function.Function<String[], Object> redis, String name, long clients, String suffix)
            throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        while (!Long.valueOf(clients).equals(redis.apply(new String[] {"ZCARD", "dlock:{" + name + "}" + suffix}))) {
            assertThat(System.nanoTime() - until)
                    .as("%d queued for %s in time", clients, name)
                    .isNegative();
            Thread.sleep(2);
        }
    }
}
