package dev.dlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;

final class WakeOneIT {
    @RepeatedTest(5)
    void release_handsTheLockToOneWaiter_noOneRetries() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                LockClient holderClient = LockClient.connect(server.uri());
                LockClient waiterClient = LockClient.connect(server.uri())) {
            Lease held = holderClient.lock("w1").acquire();
            List<CompletableFuture<Lease>> waiters = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                waiters.add(waiterClient.lock("w1").acquireAsync(Duration.ofSeconds(60)));
            }
            // release as soon as all four are queued: their queue refreshes (every 1.7 s with the default
            // lease) come after the counting window, so every call counted is caused by the release
            long until =
                    System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
            while (!Long.valueOf(4).equals(server.command("ZCARD", "dlock:{w1}:q"))) {
                assertThat(System.nanoTime() - until)
                        .as("all four queued in time")
                        .isNegative();
                Thread.sleep(5);
            }
            server.command("CONFIG", "RESETSTAT");
            held.release();
            Lease first = next(waiters);
            Thread.sleep(200);
            // the release hands the lock to the oldest waiter itself: no retry by anyone
            // (waking one waiter to try would make it 2 calls, waking all four 5)
            assertThat(ScriptCalls.of(server))
                    .as((String) server.command("INFO", "commandstats"))
                    .isEqualTo(1);
            assertThat(waiters).hasSize(3).noneMatch(CompletableFuture::isDone);
            // each release hands the lock to the next waiter of the same client, one at a time
            Lease current = first;
            while (!waiters.isEmpty()) {
                current.release();
                current = next(waiters);
            }
            current.release();
        }
    }

    /** Waits for the one waiter that gets the lock next, removes it from the list, returns its lease. */
    private static Lease next(List<CompletableFuture<Lease>> waiters) throws Exception {
        Lease lease = (Lease) CompletableFuture.anyOf(waiters.toArray(new CompletableFuture<?>[0]))
                .get(Timing.scaled(Duration.ofSeconds(5)).toMillis(), TimeUnit.MILLISECONDS);
        waiters.removeIf(w -> w.isDone() && w.getNow(null) == lease);
        return lease;
    }
}
