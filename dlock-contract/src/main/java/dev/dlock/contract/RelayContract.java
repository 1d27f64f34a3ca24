package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Threads of one client relay a lock among themselves without round trips (docs/waiting.md), while
 * every safety property holds and other clients still get their turn.
 */
public abstract class RelayContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected RelayContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perMethod();

    /** How long the tokens a checked relay reserves may be handed out without a round trip. */
    private static final long RELAY_WINDOW_MILLIS = 5;

    @Test
    void threadsOfOneClient_relayWithFewRoundTrips_noOverlap_tokensRise_noBarging() throws Exception {
        int threads = 4;
        int each = 250;
        try (LockClient client = connect(redis.uri())) {
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger violations = new AtomicInteger();
            AtomicLong lastToken = new AtomicLong();
            AtomicInteger staleTokens = new AtomicInteger();
            AtomicInteger lastHolder = new AtomicInteger(-1);
            AtomicInteger sameHolderAgain = new AtomicInteger();
            redis.commandOnMasters("CONFIG", "RESETSTAT");
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> all = new ArrayList<>();
            long start = System.nanoTime();
            for (int i = 0; i < threads; i++) {
                int id = i;
                DistributedLock lock = client.lock("relay");
                Thread t = new Thread(() -> {
                    for (int n = 0; n < each; n++) {
                        if (id % 2 == 0) { // half through leases, half through the Lock interface
                            try (Lease lease = lock.acquire()) {
                                if (lastToken.getAndAccumulate(lease.fencingToken(), Math::max)
                                        >= lease.fencingToken()) {
                                    staleTokens.incrementAndGet();
                                }
                                critical(inside, violations, lastHolder, sameHolderAgain, id);
                            }
                        } else {
                            Lock l = lock;
                            l.lock();
                            try {
                                critical(inside, violations, lastHolder, sameHolderAgain, id);
                            } finally {
                                l.unlock();
                            }
                        }
                    }
                });
                t.setUncaughtExceptionHandler((thread, e) -> failures.add(e));
                all.add(t);
                t.start();
            }
            for (Thread t : all) {
                t.join(Timing.scaled(Duration.ofSeconds(60)).toMillis());
                assertThat(t.isAlive()).isFalse();
            }
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(failures).isEmpty();
            long acquisitions = (long) threads * each;
            long calls = ScriptCalls.of(redis);
            assertThat(violations).hasValue(0);
            assertThat(staleTokens).hasValue(0);
            // Without relays every acquisition costs at least its own release and a first try (2 calls).
            // With them, a checked relay every 16 acquisitions, but at least one per 5 ms window
            // (docs/waiting.md): on a host slow enough that a wake-up takes milliseconds, the windows
            // and not the block bound the relays. Half a call per acquisition covers the blocks and
            // the acquires that found nobody of the client waiting.
            long windows = elapsedMillis / RELAY_WINDOW_MILLIS + 1;
            assertThat(calls)
                    .as("script calls (%d acquisitions in %d ms)", acquisitions, elapsedMillis)
                    .isLessThan(acquisitions / 2 + windows);
            assertThat((double) sameHolderAgain.get() / acquisitions).isLessThan(0.25);
            // the counter in Redis is past every token handed out, relayed or not
            assertThat(Long.parseLong((String) redis.command("GET", "dlock:{relay}:fence")))
                    .isGreaterThanOrEqualTo(lastToken.get());
            assertThat(redis.command("EXISTS", "dlock:{relay}")).isEqualTo(0L);
        }
    }

    private static void critical(
            AtomicInteger inside, AtomicInteger violations, AtomicInteger lastHolder, AtomicInteger again, int id) {
        if (inside.incrementAndGet() != 1) {
            violations.incrementAndGet();
        }
        if (lastHolder.getAndSet(id) == id) {
            again.incrementAndGet();
        }
        Thread.onSpinWait();
        inside.decrementAndGet();
    }

    @Test
    void anotherClient_getsItsTurn_whileThreadsOfOneClientKeepRelaying() throws Exception {
        try (LockClient busy = connect(redis.uri());
                LockClient other = connect(redis.uri())) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong busyAcquisitions = new AtomicLong();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> loopers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Thread t = new Thread(() -> {
                    DistributedLock lock = busy.lock("turns");
                    while (!stop.get()) {
                        try (Lease lease = lock.acquire()) {
                            busyAcquisitions.incrementAndGet();
                            Thread.sleep(0, 200_000);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                t.setUncaughtExceptionHandler((thread, e) -> failures.add(e));
                loopers.add(t);
                t.start();
            }
            try {
                Thread.sleep(300); // the four relay among themselves by now
                // a first round opens the other client's pub/sub connection and subscription, which
                // then linger: later rounds queue in Redis with their first try
                other.lock("turns")
                        .tryAcquire(Timing.scaled(Duration.ofSeconds(3)))
                        .orElseThrow()
                        .release();
                for (int round = 0; round < 5; round++) {
                    long before = busyAcquisitions.get();
                    Optional<Lease> mine = other.lock("turns").tryAcquire(Timing.scaled(Duration.ofSeconds(3)));
                    long meanwhile = busyAcquisitions.get() - before;
                    assertThat(mine)
                            .as("round %d: the other client got the lock", round)
                            .isPresent();
                    mine.get().release();
                    // relays go on for at most Gate.BLOCK - 1 acquisitions after the other client queued
                    // (plus the ones while it tried, subscribed and queued)
                    assertThat(meanwhile)
                            .as("round %d: acquisitions by the busy client meanwhile", round)
                            .isLessThan(64);
                    Thread.sleep(50);
                }
            } finally {
                stop.set(true);
                for (Thread t : loopers) {
                    t.join(10_000);
                }
            }
            assertThat(failures).isEmpty();
        }
    }

    @Test
    void aLaterHolderElsewhere_getsAHigherTokenThanEveryRelayedOne_evenWithTheCounterAheadOfTheClock()
            throws Exception {
        // tokens are max(last + 1, server µs): with the counter far ahead of the clock only the
        // reserved block keeps a later token above the relayed ones
        redis.command("SET", "dlock:{ahead}:fence", "3000000000000000");
        try (LockClient a = connect(redis.uri());
                LockClient b = connect(redis.uri())) {
            DistributedLock lock = a.lock("ahead");
            Lease current = lock.acquire();
            List<CompletableFuture<Lease>> line = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                line.add(lock.acquireAsync(Duration.ofSeconds(30)));
            }
            long highest = current.fencingToken();
            for (CompletableFuture<Lease> next : line) {
                current.release();
                current = next.get(5, TimeUnit.SECONDS);
                assertThat(current.fencingToken()).isGreaterThan(highest);
                highest = current.fencingToken();
            }
            // the hold disappears as if client a had died and its lease expired
            redis.command("DEL", "dlock:{ahead}");
            Lease later = b.lock("ahead").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
            assertThat(later.fencingToken()).isGreaterThan(highest);
            later.release();
        }
    }

    @Test
    void aWaiterInLine_thatIsInterruptedOrTimesOutOrIsCancelled_leavesNothingBehind() throws Exception {
        try (LockClient client = connect(redis.uri())) {
            DistributedLock lock = client.lock("giveup");
            Lease held = lock.acquire();
            CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    lock.acquire();
                    interrupted.complete(null);
                } catch (RuntimeException e) {
                    interrupted.complete(e);
                }
            });
            waiter.start();
            Thread.sleep(100);
            waiter.interrupt();
            assertThat(interrupted.get(5, TimeUnit.SECONDS)).isInstanceOf(LockException.class);
            assertThat(lock.tryAcquire(Duration.ofMillis(200))).isEmpty();
            CompletableFuture<Lease> cancelled = lock.acquireAsync(Duration.ofSeconds(30));
            assertThat(cancelled.cancel(false)).isTrue();
            held.release();
            // nobody wants it any more: the relay skips them all and the lock is gone from Redis
            long until =
                    System.nanoTime() + Timing.scaled(Duration.ofSeconds(2)).toNanos();
            while (!Long.valueOf(0).equals(redis.command("EXISTS", "dlock:{giveup}"))) {
                assertThat(System.nanoTime() - until)
                        .as("lock released in time")
                        .isNegative();
                Thread.sleep(5);
            }
            try (Lease again = lock.tryAcquire(Duration.ZERO).orElseThrow()) {
                assertThat(again.isValid()).isTrue();
            }
        }
    }

    @Test
    void aWaiterWithItsOwnLeaseTime_isNotRelayed_butAcquiresInRedisWithIt() throws Exception {
        try (LockClient client = connect(redis.uri())) {
            DistributedLock lock = client.lock("fixed");
            Lease held = lock.acquire();
            CompletableFuture<Optional<Lease>> fixed =
                    CompletableFuture.supplyAsync(() -> lock.tryAcquire(Duration.ofSeconds(10), Duration.ofSeconds(2)));
            Thread.sleep(100);
            held.release();
            Lease lease = fixed.get(5, TimeUnit.SECONDS).orElseThrow();
            assertThat(lease.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(2));
            assertThat((Long) redis.command("PTTL", "dlock:{fixed}")).isBetween(1L, 2000L);
            lease.release();
        }
    }

    @Test
    void whenTheHoldIsLost_theNextInLineAcquiresForItself() throws Exception {
        try (LockClient client =
                builder(redis.uri()).leaseTime(Duration.ofSeconds(1)).build()) {
            DistributedLock lock = client.lock("lost");
            Lease held = lock.acquire();
            CompletableFuture<Lease> next = lock.acquireAsync(Duration.ofSeconds(30));
            Thread.sleep(100);
            redis.command("DEL", "dlock:{lost}"); // as after a failover that lost the write
            Lease taken = next.get(Timing.scaled(Duration.ofSeconds(3)).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(held.isValid()).isFalse();
            assertThat(taken.isValid()).isTrue();
            assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
            assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
            taken.release();
        }
    }

    @Test
    void close_failsTheAcquiresWaitingInLine() throws Exception {
        LockClient client = connect(redis.uri());
        DistributedLock lock = client.lock("closing");
        lock.acquire();
        CompletableFuture<Lease> waiting = lock.acquireAsync(Duration.ofSeconds(30));
        Thread.sleep(50);
        client.close();
        assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(LockException.class);
        assertThat(redis.command("EXISTS", "dlock:{closing}")).isEqualTo(0L);
    }
}
