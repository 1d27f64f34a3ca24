package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.LockServerException;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The semaphore (docs/lock-family.md) against real servers and processes: the permit count is never
 * exceeded and is reached, FIFO without overtaking, crashed holders' permits come back, the watchdog
 * keeps permits and reports their loss, the count lives in Redis, tokens increase across permits, and
 * a name is one kind of lock at a time.
 */
public abstract class SemaphoreContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected SemaphoreContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    private Object command(String... args) {
        return redis.command(args);
    }

    @Test
    void threePermits_eightThreadsOfFourClients_neverMoreThanThreeHolders_andThreeIsReached() throws Exception {
        int permits = 3;
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                clients.add(connect(redis.uri()));
            }
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            int rounds = 20;
            redis.commandOnMasters("CONFIG", "RESETSTAT");
            Workers.run("permit", 8, Duration.ofSeconds(60), worker -> {
                DistributedSemaphore semaphore = clients.get(worker % 4).semaphore("three", permits);
                for (int i = 0; i < rounds; i++) {
                    try (Lease lease = semaphore.acquire()) {
                        int now = inside.incrementAndGet();
                        peak.accumulateAndGet(now, Math::max);
                        Thread.sleep(3);
                        assertThat(lease.isValid()).isTrue();
                        inside.decrementAndGet();
                    }
                }
            });
            long calls = ScriptCalls.of(redis);
            assertThat(peak.get()).as("peak holders").isEqualTo(permits);
            // a release grants the waiters that fit, so a contended acquire costs its queueing try and its
            // release; a herd of retries would cost several calls per waiter and release
            double perAcquisition = calls / (8.0 * rounds);
            System.out.printf(
                    "semaphore(3), 8 threads: %d script calls for %d acquisitions, %.2f each incl. release%n",
                    calls, 8 * rounds, perAcquisition);
            assertThat(perAcquisition).as("script calls per acquisition").isLessThan(4.0);
            assertThat(clients.get(0).semaphore("three", permits).availablePermits())
                    .isEqualTo(permits);
            assertThat(command("ZCARD", "dlock:{three}:sq"))
                    .as("queue left empty")
                    .isEqualTo(0L);
        } finally {
            clients.forEach(LockClient::close);
        }
    }

    @Test
    void threePermits_eightProcesses_neverMoreThanThreeHolders_andThreeIsReached() {
        String transport = transport().getClass().getName();
        HolderProcesses.contest(redis, SemaphoreHolderMain.class, 8, Duration.ofSeconds(60), i ->
                new String[] {"loop", redis.uri(), "procs", "3", "15", "30000", transport});
        assertThat(command("GET", SemaphoreHolderMain.peak("procs")))
                .as("peak holders")
                .isEqualTo("3");
        assertThat(command("GET", SemaphoreHolderMain.counter("procs"))).isEqualTo("0");
    }

    @Test
    void acquireTwo_waitsUntilTwoAreFree_andLaterWaitersForOneDoNotOvertakeIt() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri());
                LockClient c = connect(redis.uri())) {
            Lease first = a.semaphore("fifo", 3).acquire();
            Lease second = a.semaphore("fifo", 3).acquire();
            CompletableFuture<Lease> two = b.semaphore("fifo", 3).acquireAsync(2, scaled(30_000));
            long queuedBy = System.nanoTime() + scaled(5000).toNanos();
            while (!command("ZCARD", "dlock:{fifo}:sq").equals(1L) && System.nanoTime() < queuedBy) {
                Thread.sleep(10);
            }
            assertThat(command("ZCARD", "dlock:{fifo}:sq"))
                    .as("the waiter for 2 queued")
                    .isEqualTo(1L);
            assertThat(two).isNotDone();
            assertThat(a.semaphore("fifo", 3).availablePermits()).isEqualTo(1);

            // one permit is free, but the waiter for two is ahead: a later waiter for one waits too
            Optional<Lease> one = c.semaphore("fifo", 3).tryAcquire(1, Duration.ofMillis(400));
            assertThat(one).isEmpty();
            assertThat(two).isNotDone();

            first.release(); // two are free now: the release grants them to the head
            Lease both = two.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(both.isValid()).isTrue();
            assertThat(both.fencingToken()).isGreaterThan(second.fencingToken());
            assertThat(a.semaphore("fifo", 3).availablePermits()).isZero();
            assertThat(c.semaphore("fifo", 3).tryAcquire(Duration.ZERO)).isEmpty();
            both.release();
            Lease now = c.semaphore("fifo", 3).tryAcquire(1, Duration.ZERO).orElseThrow();
            now.release();
            second.release();
        }
    }

    @Test
    void aWaiterThatTimesOutOrIsInterrupted_leavesTheQueue_andUnblocksThoseBehindIt() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            DistributedSemaphore semaphore = a.semaphore("leave", 2);
            Lease held = semaphore.acquire();
            assertThat(b.semaphore("leave", 2).tryAcquire(2, Duration.ofMillis(300)))
                    .isEmpty();
            assertThat(command("ZCARD", "dlock:{leave}:sq"))
                    .as("timed out: left")
                    .isEqualTo(0L);

            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    b.semaphore("leave", 2).acquire(2);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            waiter.start();
            long queuedBy = System.nanoTime() + scaled(5000).toNanos();
            while (!command("ZCARD", "dlock:{leave}:sq").equals(1L) && System.nanoTime() < queuedBy) {
                Thread.sleep(10);
            }
            // queued for 2, it blocks a waiter for the 1 that is free; the interrupt must let that one in
            CompletableFuture<Lease> behind = b.semaphore("leave", 2).acquireAsync(1, scaled(30_000));
            Thread.sleep(200);
            assertThat(behind).isNotDone();
            waiter.interrupt();
            waiter.join(scaled(5000).toMillis());
            assertThat(waiter.isAlive()).isFalse();
            assertThat(thrown.get()).isInstanceOf(LockException.class);
            Lease one = behind.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(command("ZCARD", "dlock:{leave}:sq")).isEqualTo(0L);
            one.release();
            held.release();
            assertThat(semaphore.availablePermits()).isEqualTo(2);
        }
    }

    @Test
    void closingAClient_endsItsWaits_leavesTheQueue_andGivesBackItsPermits() throws Exception {
        try (LockClient other = connect(redis.uri())) {
            LockClient closing = connect(redis.uri());
            Lease held = closing.semaphore("close", 2).acquire();
            Lease other1 = other.semaphore("close", 2).acquire();
            CompletableFuture<Lease> waiting = closing.semaphore("close", 2).acquireAsync(1, scaled(30_000));
            long queuedBy = System.nanoTime() + scaled(5000).toNanos();
            while (!command("ZCARD", "dlock:{close}:sq").equals(1L) && System.nanoTime() < queuedBy) {
                Thread.sleep(10);
            }
            assertThat(command("ZCARD", "dlock:{close}:sq")).isEqualTo(1L);
            closing.close();
            assertThatThrownBy(() -> waiting.get(scaled(5000).toMillis(), TimeUnit.MILLISECONDS))
                    .hasCauseInstanceOf(LockException.class);
            assertThat(held.isValid()).isFalse();
            assertThat(command("ZCARD", "dlock:{close}:sq"))
                    .as("left the queue")
                    .isEqualTo(0L);
            assertThat(other.semaphore("close", 2).availablePermits())
                    .as("its permit came back")
                    .isEqualTo(1);
            other1.release();
        }
    }

    @Test
    void sigkillOfAHolder_itsPermitsComeBackWithinLeasePlusOneSecond() {
        long leaseMillis = 2000;
        try (JvmProcess holder = HolderProcesses.start(
                        SemaphoreHolderMain.class,
                        "hold",
                        redis.uri(),
                        "crash",
                        "2",
                        "2",
                        Long.toString(leaseMillis),
                        transport().getClass().getName());
                LockClient other = connect(redis.uri())) {
            long token =
                    Long.parseLong(holder.awaitLine("ACQUIRED", scaled(30_000)).split(" ")[1]);
            DistributedSemaphore semaphore = other.semaphore("crash", 2);
            assertThat(semaphore.tryAcquire(Duration.ZERO))
                    .as("both permits held")
                    .isEmpty();
            holder.kill();
            long start = System.nanoTime();
            Lease lease = semaphore.tryAcquire(2, scaled(leaseMillis + 1000)).orElseThrow();
            assertThat(millisSince(start)).isLessThanOrEqualTo(leaseMillis + 1000);
            assertThat(lease.fencingToken()).isGreaterThan(token);
            lease.release();
        }
    }

    @Test
    void theWatchdogKeepsAPermitPastSeveralLeaseTimes_andReportsItsLossWhenTheKeysAreDeleted() throws Exception {
        long leaseMillis = 1500; // renewal every 500 ms
        try (LockClient mine = builder(redis.uri())
                        .leaseTime(Duration.ofMillis(leaseMillis))
                        .build();
                LockClient other = connect(redis.uri())) {
            Lease lease = mine.semaphore("kept", 1).acquire();
            CompletableFuture<LockLostException> heard = new CompletableFuture<>();
            lease.onLost(heard::complete);
            Thread.sleep(4 * leaseMillis);
            assertThat(lease.isValid()).isTrue();
            assertThat(other.semaphore("kept", 1).tryAcquire(Duration.ZERO)).isEmpty();

            command("DEL", "dlock:{kept}:holds"); // an operator clears the holders
            long deleted = System.nanoTime();
            LockLostException loss = heard.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(millisSince(deleted))
                    .as("at the next renewal round")
                    .isLessThan(leaseMillis / 3 + scaled(700).toMillis());
            assertThat(loss.fencingToken()).isEqualTo(lease.fencingToken());
            assertThat(lease.isValid()).isFalse();
            assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        }
    }

    @Test
    void aFixedLease_isNotRenewed_andItsPermitComesBackWhenItRunsOut() throws Exception {
        try (LockClient client =
                builder(redis.uri()).leaseTime(Duration.ofMillis(600)).build()) {
            DistributedSemaphore semaphore = client.semaphore("fixed", 1);
            Lease lease = semaphore
                    .tryAcquire(1, Duration.ZERO, Duration.ofMillis(800))
                    .orElseThrow();
            assertThat(semaphore.availablePermits()).isZero();
            Thread.sleep(1200);
            assertThat(lease.isValid()).isFalse();
            assertThat(semaphore.availablePermits()).isEqualTo(1);
        }
    }

    @Test
    void anotherCount_failsNamingBothCounts_andNIsCheckedBeforeAnyIo() {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            assertThatThrownBy(() -> a.semaphore("count", 0)).isInstanceOf(IllegalArgumentException.class);
            DistributedSemaphore three = a.semaphore("count", 3);
            assertThatThrownBy(() -> three.acquire(4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("4")
                    .hasMessageContaining("3");
            assertThat(command("EXISTS", "dlock:{count}")).as("no I/O before").isEqualTo(0L);

            assertThat(three.availablePermits()).isEqualTo(3); // the first I/O creates it with 3
            assertThatThrownBy(() -> b.semaphore("count", 5).acquire())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{count}")
                    .hasMessageContaining("created with 3 permits")
                    .hasMessageContaining("not the 5");
            assertThat(b.semaphore("count", 3).tryAcquire(Duration.ZERO)).isPresent();
        }
    }

    @Test
    void setPermitsUp_grantsTheQueuedWaitersThatNowFit_inTheSameScript() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            Lease held = a.semaphore("grow", 1).acquire();
            CompletableFuture<Lease> w1 = b.semaphore("grow", 1).acquireAsync(1, scaled(30_000));
            CompletableFuture<Lease> w2 = b.semaphore("grow", 1).acquireAsync(1, scaled(30_000));
            long queuedBy = System.nanoTime() + scaled(5000).toNanos();
            while (!command("ZCARD", "dlock:{grow}:sq").equals(2L) && System.nanoTime() < queuedBy) {
                Thread.sleep(10);
            }
            assertThat(command("ZCARD", "dlock:{grow}:sq")).isEqualTo(2L);
            a.semaphore("grow", 1).setPermits(3);
            assertThat(command("HLEN", "dlock:{grow}:holds"))
                    .as("granted by setPermits")
                    .isEqualTo(3L);
            Lease l1 = w1.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            Lease l2 = w2.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(l1.isValid() && l2.isValid() && held.isValid()).isTrue();
            l1.release();
            l2.release();
            held.release();
        }
    }

    @Test
    void setPermitsDown_holdersKeepTheirs_andNobodyGetsInUntilTheHoldersAreWithinTheNewCount() {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            DistributedSemaphore semaphore = a.semaphore("shrink", 3);
            List<Lease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add(semaphore.acquire());
            }
            semaphore.setPermits(1);
            assertThat(held).allMatch(Lease::isValid);
            assertThat(semaphore.availablePermits()).isZero();
            DistributedSemaphore theirs = b.semaphore("shrink", 3); // still given the count it was created with
            assertThat(theirs.tryAcquire(Duration.ofMillis(200))).isEmpty();
            held.get(0).release();
            held.get(1).release();
            assertThat(theirs.tryAcquire(Duration.ZERO)).as("1 held of 1").isEmpty();
            assertThatThrownBy(() -> theirs.acquire(2))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("has 1 permits, fewer than the 2");
            held.get(2).release();
            Lease lease = theirs.tryAcquire(Duration.ZERO).orElseThrow();
            lease.release();
        }
    }

    @Test
    void tokensStrictlyIncreaseAcrossPermits_andAcrossTheMutexOfTheSameName() throws Exception {
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            long last = 0;
            List<Lease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Lease lease = (i % 2 == 0 ? a : b).semaphore("tokens", 3).acquire();
                assertThat(lease.fencingToken()).isGreaterThan(last);
                last = lease.fencingToken();
                held.add(lease);
            }
            CompletableFuture<Lease> granted = b.semaphore("tokens", 3).acquireAsync(1, scaled(30_000));
            Thread.sleep(200);
            held.get(0).release();
            Lease next = granted.get(scaled(3000).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(next.fencingToken()).as("a granted token").isGreaterThan(last);
            last = next.fencingToken();
            next.release();
            held.get(1).release();
            held.get(2).release();
            command("DEL", "dlock:{tokens}"); // the semaphore's record gone: the name may be a mutex now
            Lease mutex = a.lock("tokens").acquire();
            assertThat(mutex.fencingToken()).as("the name's one counter").isGreaterThan(last);
            mutex.release();
        }
    }

    @Test
    void aNameHeldAsAnotherKind_isATypedErrorNamingTheKey_andNothingIsOverwritten() {
        try (LockClient client = connect(redis.uri())) {
            Lease mutex = client.lock("kind").acquire();
            Object owner = command("HGET", "dlock:{kind}", "owner");
            assertThatThrownBy(() -> client.semaphore("kind", 2).acquire())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{kind}")
                    .hasMessageContaining("dlock lock");
            assertThatThrownBy(() -> client.semaphore("kind", 2).availablePermits())
                    .isInstanceOf(LockServerException.class);
            assertThat(command("HGET", "dlock:{kind}", "owner")).isEqualTo(owner);
            assertThat(command("EXISTS", "dlock:{kind}:holds")).isEqualTo(0L);
            mutex.release();

            Lease permit = client.semaphore("kind2", 2).acquire();
            Object record = command("GET", "dlock:{kind2}");
            assertThatThrownBy(() -> client.lock("kind2").tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{kind2}");
            assertThat(command("GET", "dlock:{kind2}")).isEqualTo(record);
            assertThat(command("HLEN", "dlock:{kind2}:holds")).isEqualTo(1L);
            permit.release();

            command("SET", "dlock:{kind3}", "someone else's");
            assertThatThrownBy(() -> client.semaphore("kind3", 2).acquire())
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("dlock:{kind3}");
            assertThat(command("GET", "dlock:{kind3}")).isEqualTo("someone else's");
        }
    }
}
