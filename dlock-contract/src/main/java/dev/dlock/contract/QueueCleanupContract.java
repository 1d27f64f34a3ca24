package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockServerException;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No lock is handed to an owner that has gone: a waiter whose queue refresh fails leaves the queue,
 * and a take never leaves the taker's own queue entry behind for a release to hand the lock to.
 */
public abstract class QueueCleanupContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected QueueCleanupContract() {}

    private RedisServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeEach
    void start() {
        server = RedisServer.builder().start(); // its own: the test changes maxmemory
    }

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS))
                .as("worker threads ended")
                .isTrue();
        server.close();
    }

    private LockClient client(Duration leaseTime) {
        return builder(server.uri()).leaseTime(leaseTime).build();
    }

    @Test
    void waiterWhoseRefreshRanOutOfMemory_leavesTheQueue_soTheReleaseDoesNotHandItTheLock() throws Exception {
        try (LockClient holder = client(Duration.ofSeconds(10));
                LockClient waiter = client(Duration.ofSeconds(3)); // entries live 3 s, refreshed every 1 s
                LockClient third = client(Duration.ofSeconds(10))) {
            Lease held = holder.lock("oom")
                    .tryAcquire(Duration.ZERO, Duration.ofSeconds(10))
                    .orElseThrow();
            Future<Lease> waiting = threads.submit(() -> waiter.lock("oom").acquire());
            WaitQueue.awaitSize(server, "oom", 1);

            server.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            server.command("SET", "filler", "x".repeat(2 * 1024 * 1024));
            // over the limit from now on: every write that may need memory is refused
            server.command("CONFIG", "SET", "maxmemory", Long.toString(usedMemory() - 1024 * 1024));
            assertThat(waiting)
                    .as("the waiter's refresh fails within about a second")
                    .failsWithin(Timing.scaled(Duration.ofSeconds(5)))
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(LockServerException.class)
                    .withMessageContaining("out of memory");

            server.command("DEL", "filler");
            server.command("CONFIG", "SET", "maxmemory", "0");
            assertThat(server.command("ZCARD", "dlock:{oom}:q"))
                    .as("the failed waiter left the queue")
                    .isEqualTo(0L);
            held.release();
            assertThat(third.lock("oom").tryAcquire(Duration.ZERO))
                    .as("free at once, not granted to the waiter that has gone")
                    .isPresent();
        }
    }

    private long usedMemory() {
        String info = (String) server.command("INFO", "memory");
        for (String line : info.split("\r\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()));
            }
        }
        throw new AssertionError("no used_memory in INFO: " + info);
    }

    /**
     * An entry of the taker's own is left from an earlier wait (made here by hand, as its queueing
     * try would have written it). The take must remove it; otherwise the relay to the next thread of
     * the client counts it as another client waiting, releases, and hands the lock to its own owner,
     * where it sits for a whole lease while the next thread waits.
     */
    @Test
    void takeRemovesTheTakersOwnQueueEntry_soTheNextThreadGetsTheLockAtOnce() throws Exception {
        ExecutorService first = Executors.newSingleThreadExecutor();
        try (LockClient client = client(Duration.ofSeconds(5))) {
            DistributedLock lock = client.lock("own");
            String owner = first.submit(() -> {
                        client.lock("own-probe").lock(); // this thread's owner id, as the client writes it
                        String me = client.lock("own-probe").info().holderId().orElseThrow();
                        client.lock("own-probe").unlock();
                        List<?> time = (List<?>) server.command("TIME");
                        long nowMillis = Long.parseLong((String) time.get(0)) * 1000;
                        server.command("ZADD", "dlock:{own}:q", "1", me);
                        server.command("HSET", "dlock:{own}:qe", me, (nowMillis + 60_000) + " 5000");
                        lock.lock();
                        return me;
                    })
                    .get(10, TimeUnit.SECONDS);
            assertThat(server.command("ZSCORE", "dlock:{own}:q", owner))
                    .as("the taker's own queue entry")
                    .isNull();

            Future<Long> second = threads.submit(() -> {
                long start = System.nanoTime();
                lock.lock();
                long waited = System.nanoTime() - start;
                lock.unlock();
                return TimeUnit.NANOSECONDS.toMillis(waited);
            });
            Thread.sleep(200); // the second thread lines up behind the first inside the client
            first.submit(lock::unlock).get(10, TimeUnit.SECONDS);
            assertThat(second.get(10, TimeUnit.SECONDS))
                    .as("ms the second thread waited after the first released (lease 5 s)")
                    .isLessThan(1_500L);
        } finally {
            first.shutdownNow();
        }
    }
}
