package dev.dlock.lettuce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockServerException;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** What the failover tests wait for: an acquire that succeeds once the client followed, a queued waiter. */
final class Failovers {
    private Failovers() {}

    /** Acquires, retrying what fails while the client follows a failover; fails after {@code limit} (scaled). */
    static Lease acquireWithin(LockClient client, String name, Duration limit) throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(limit).toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < until) {
            try {
                Optional<Lease> lease = client.lock(name).tryAcquire(Duration.ofMillis(100));
                if (lease.isPresent()) {
                    return lease.get();
                }
            } catch (LockConnectionException | LockServerException e) {
                last = e;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no acquire of " + name + " within " + limit, last);
    }

    /** Polls the master until one client waits in the queue of lock {@code name}; fails after a scaled 10 s. */
    static void awaitQueued(RedisServer master, String name) throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        while (!Long.valueOf(1).equals(master.command("ZCARD", "dlock:{" + name + "}:q"))) {
            assertThat(System.nanoTime()).as("waiter queued for %s", name).isLessThan(until);
            Thread.sleep(5);
        }
    }

    /**
     * As {@link #awaitQueued(RedisServer, String)}, failing with the acquire's own failure if it ended first, so a
     * waiter that failed (a command timeout on a busy host) does not read as one that never queued.
     */
    static void awaitQueued(RedisServer master, String name, CompletableFuture<Lease> waiting)
            throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        while (!Long.valueOf(1).equals(master.command("ZCARD", "dlock:{" + name + "}:q"))) {
            if (waiting.isDone()) {
                waiting.join(); // throws the acquire's failure
                throw new AssertionError("the acquire of " + name + " ended without queueing");
            }
            assertThat(System.nanoTime()).as("waiter queued for %s", name).isLessThan(until);
            Thread.sleep(5);
        }
    }
}
