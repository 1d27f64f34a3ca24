package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.RepeatedTest;

/** A release hands the lock to one waiter, with no retries by anyone, and clients take turns. */
public abstract class WakeOneContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected WakeOneContract() {}

    @RepeatedTest(5)
    void release_handsTheLockToOneWaiter_noOneRetries_clientsTakeTurns() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                LockClient holderClient = connect(server.uri());
                LockClient a = connect(server.uri());
                LockClient b = connect(server.uri())) {
            Lease held = holderClient.lock("w1").acquire();
            List<CompletableFuture<Lease>> waiters = new ArrayList<>();
            List<String> names = List.of("a1", "a2", "b1", "b2");
            waiters.add(a.lock("w1").acquireAsync(Duration.ofSeconds(60)));
            WaitQueue.awaitSize(server, "w1", 1); // a1 queues in Redis first; a2 lines up behind it inside client a
            waiters.add(a.lock("w1").acquireAsync(Duration.ofSeconds(60)));
            waiters.add(b.lock("w1").acquireAsync(Duration.ofSeconds(60)));
            WaitQueue.awaitSize(server, "w1", 2);
            waiters.add(b.lock("w1").acquireAsync(Duration.ofSeconds(60)));
            Thread.sleep(100);
            // one queue entry per client, however many of its acquires wait
            assertThat(server.command("ZCARD", "dlock:{w1}:q")).isEqualTo(2L);
            server.command("CONFIG", "RESETSTAT");
            held.release();
            Set<CompletableFuture<Lease>> handed = new HashSet<>();
            Lease first = next(waiters, handed);
            Thread.sleep(200);
            // the release hands the lock to the oldest waiter itself: no retry by anyone
            // (waking one waiter to try would make it 2 calls, waking all four 5)
            assertThat(ScriptCalls.of(server))
                    .as((String) server.command("INFO", "commandstats"))
                    .isEqualTo(1);
            assertThat(waiters.stream().filter(CompletableFuture::isDone)).hasSize(1);
            // with the other client queued, a release goes to it, not to the releaser's next acquire:
            // the clients take turns
            List<String> order = new ArrayList<>();
            order.add(names.get(waiters.indexOf(done(waiters, first))));
            Lease current = first;
            for (int i = 1; i < 4; i++) {
                // the other client's next acquire queues only after its previous release's reply; a
                // release before that finds no one queued and rightly relays inside the releaser
                WaitQueue.awaitSize(server, "w1", 1);
                current.release();
                current = next(waiters, handed);
                order.add(names.get(waiters.indexOf(done(waiters, current))));
            }
            current.release();
            assertThat(order).containsExactly("a1", "b1", "a2", "b2");
        }
    }

    private static CompletableFuture<Lease> done(List<CompletableFuture<Lease>> waiters, Lease lease) {
        return waiters.stream()
                .filter(w -> w.isDone() && w.getNow(null) == lease)
                .findFirst()
                .orElseThrow();
    }

    /** Waits for the one waiter that gets the lock next (among those not done yet), returns its lease. */
    private static Lease next(List<CompletableFuture<Lease>> waiters, Set<CompletableFuture<Lease>> handed)
            throws Exception {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(5)).toNanos();
        while (true) { // the one not handed out before
            for (CompletableFuture<Lease> w : waiters) {
                if (w.isDone() && !w.isCompletedExceptionally() && !handed.contains(w)) {
                    handed.add(w);
                    return w.join();
                }
            }
            assertThat(System.nanoTime() - until)
                    .as("next waiter got the lock in time")
                    .isNegative();
            Thread.sleep(1);
        }
    }
}
