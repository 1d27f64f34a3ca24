package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Contention across clients: releases hand the lock over in queue order, with no herd of retries. */
public abstract class HandoffContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected HandoffContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perMethod();

    @Test
    void sixClientsOnOneLock_noOverlap_fewRoundTrips_noBargingByTheReleaser() throws Exception {
        int clients = 6;
        int each = 40;
        List<LockClient> all = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            all.add(connect(redis.uri()));
        }
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicLong lastToken = new AtomicLong();
        AtomicInteger staleTokens = new AtomicInteger();
        AtomicInteger lastHolder = new AtomicInteger(-1);
        AtomicInteger sameHolderAgain = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        redis.commandOnMasters("CONFIG", "RESETSTAT");
        try {
            Workers.run("handoff", clients, Duration.ofSeconds(120), id -> {
                DistributedLock lock = all.get(id).lock("contended");
                for (int n = 0; n < each; n++) {
                    try (Lease lease = lock.acquire()) {
                        if (inside.incrementAndGet() != 1) {
                            violations.incrementAndGet();
                        }
                        if (lastToken.getAndAccumulate(lease.fencingToken(), Math::max) >= lease.fencingToken()) {
                            staleTokens.incrementAndGet();
                        }
                        if (n == 0) {
                            started.incrementAndGet();
                        }
                        // counted while every client is in the game: at the start (a client still opening
                        // its pub/sub connection) and the end (clients that are done) nobody else may wait
                        if (lastHolder.getAndSet(id) == id && started.get() == clients && done.get() == 0) {
                            sameHolderAgain.incrementAndGet();
                        }
                        if (n == each - 1) {
                            done.incrementAndGet();
                        }
                        inside.decrementAndGet();
                    }
                }
            });
        } finally {
            for (LockClient c : all) {
                c.close();
            }
        }
        long acquisitions = (long) clients * each;
        double callsPerAcquisition = (double) ScriptCalls.of(redis) / acquisitions;
        assertThat(violations).hasValue(0);
        assertThat(staleTokens).hasValue(0);
        // per acquisition: its release, a first try, a queueing try (and a rare refresh). A herd that
        // woke every client at each release would add up to five more tries per acquisition.
        assertThat(callsPerAcquisition).isLessThan(3.5);
        // a releaser that comes straight back finds the lock already handed to the queue's head;
        // only when nobody waits (the start and the end of the run) can it take the lock again
        assertThat(sameHolderAgain.get()).isLessThan((int) (acquisitions / 4));
    }

    @Test
    void waiterThatGivesUp_leavesTheQueue_soTheReleaseHandsNothingToIt() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease held = a.lock("gu").acquire();
            assertThat(b.lock("gu").tryAcquire(Duration.ofMillis(300))).isEmpty();
            assertThat(redis.command("EXISTS", "dlock:{gu}:q", "dlock:{gu}:qe")).isEqualTo(0L);
            held.release();
            assertThat(redis.command("EXISTS", "dlock:{gu}")).isEqualTo(0L);

            // an interrupted waiter leaves too
            Lease again = a.lock("gu").acquire();
            Thread waiter = new Thread(() -> {
                try {
                    b.lock("gu").lockInterruptibly();
                } catch (InterruptedException expected) {
                    // the point of the test
                }
            });
            waiter.start();
            WaitQueue.awaitSize(redis, "gu", 1);
            waiter.interrupt();
            waiter.join(5000);
            assertThat(waiter.isAlive()).isFalse();
            assertThat(redis.command("EXISTS", "dlock:{gu}:q")).isEqualTo(0L);
            again.release();
            assertThat(redis.command("EXISTS", "dlock:{gu}")).isEqualTo(0L);
        }
    }

    @Test
    void closingTheClient_failsItsWaitingAcquires_andTakesThemOutOfTheQueue() throws Exception {
        try (LockClient a = connect(redis.uri())) {
            Lease held = a.lock("cl").acquire();
            LockClient b = connect(redis.uri());
            var waiting = b.lock("cl").acquireAsync(Duration.ofSeconds(60));
            WaitQueue.awaitSize(redis, "cl", 1);
            b.close();
            assertThat(waiting).failsWithin(Duration.ofSeconds(5));
            assertThat(redis.command("EXISTS", "dlock:{cl}:q")).isEqualTo(0L);
            held.release();
            assertThat(redis.command("EXISTS", "dlock:{cl}")).isEqualTo(0L);
        }
    }

    @Test
    void eachWaitingClient_hasItsOwnChannel_soAHandOffWakesNoOtherClient() throws Exception {
        try (LockClient holder = connect(redis.uri());
                LockClient one = connect(redis.uri());
                LockClient two = connect(redis.uri())) {
            Lease held = holder.lock("ch").acquire();
            var first = one.lock("ch").acquireAsync(Duration.ofSeconds(30));
            WaitQueue.awaitSize(redis, "ch", 1);
            var second = two.lock("ch").acquireAsync(Duration.ofSeconds(30));
            WaitQueue.awaitSize(redis, "ch", 2);
            List<Object> numsub =
                    redis.numsub("dlock:{ch}:wake:" + one.clientId(), "dlock:{ch}:wake:" + two.clientId());
            assertThat(numsub)
                    .containsExactly("dlock:{ch}:wake:" + one.clientId(), 1L, "dlock:{ch}:wake:" + two.clientId(), 1L);
            held.release();
            Lease got = first.get(5, java.util.concurrent.TimeUnit.SECONDS); // FIFO: the first queued
            assertThat(second).isNotDone();
            got.release();
            second.get(5, java.util.concurrent.TimeUnit.SECONDS).release();
        }
    }
}
