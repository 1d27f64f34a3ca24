package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockLostException;
import dev.dlock.LockServerException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The basic contract of a lock: re-entry, ownership, waiting, expiry, fencing, bad input and errors. */
public abstract class LockContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected LockContract() {}

    @RegisterExtension
    static final ContractRedis redis = ContractRedis.perClass();

    private LockClient a;
    private LockClient b;

    @BeforeEach
    void openClients() {
        a = builder(redis.uri()).leaseTime(Duration.ofSeconds(3)).build();
        b = builder(redis.uri()).leaseTime(Duration.ofSeconds(3)).build();
    }

    @AfterEach
    void closeClients() {
        a.close();
        b.close();
    }

    @Test
    void lock_isReentrant_andOnlyLastUnlockReleases() {
        DistributedLock lock = a.lock("r");
        lock.lock();
        lock.lock();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        lock.unlock();
        assertThat(b.lock("r").tryLock()).isFalse();
        lock.unlock();
        assertThat(lock.getHoldCount()).isZero();
        assertThat(b.lock("r").tryLock()).isTrue();
        b.lock("r").unlock();
    }

    @Test
    void unlock_byNonHolder_throwsIllegalMonitorState() {
        assertThatThrownBy(() -> a.lock("x").unlock()).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void release_byNonOwner_leavesKeyUntouched() {
        Lease lease = a.lock("own").acquire();
        ContractRedis server = redis;
        server.command("HSET", "dlock:{own}", "owner", "someone-else");
        assertThatThrownBy(lease::release).isInstanceOf(LockLostException.class);
        assertThat(server.command("HGET", "dlock:{own}", "owner")).isEqualTo("someone-else");
    }

    @Test
    void tryAcquire_whenHeldByOther_timesOutEmpty() {
        try (Lease held = a.lock("t").acquire()) {
            long start = System.nanoTime();
            Optional<Lease> other = b.lock("t").tryAcquire(Duration.ofMillis(300));
            assertThat(other).isEmpty();
            assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
            assertThat(held.isValid()).isTrue();
        }
    }

    @Test
    void acquire_whenHeldByOther_waitsForRelease_withHigherToken() throws Exception {
        Lease first = a.lock("w").acquire();
        CompletableFuture<Lease> second = b.lock("w").acquireAsync(Duration.ofSeconds(10));
        Thread.sleep(200);
        assertThat(second).isNotDone();
        first.release();
        Lease got = second.get(5, TimeUnit.SECONDS);
        assertThat(got.fencingToken()).isGreaterThan(first.fencingToken());
        got.close();
        got.close(); // idempotent
    }

    @Test
    void interruptedWait_leavesNoLockBehind() throws Exception {
        Lease held = a.lock("i").acquire();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            started.countDown();
            try {
                b.lock("i").lockInterruptibly();
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        waiter.start();
        started.await();
        Thread.sleep(200);
        waiter.interrupt();
        waiter.join(5000);
        assertThat(interrupted).isTrue();
        held.release();
        assertThat(a.lock("i").isLocked()).isFalse();
    }

    @Test
    void expiry_withoutRelease_wakesWaiter() {
        Lease fixed =
                a.lock("e").tryAcquire(Duration.ZERO, Duration.ofMillis(500)).orElseThrow();
        long start = System.nanoTime();
        Lease next = b.lock("e").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2000);
        assertThat(fixed.whenLost()).succeedsWithin(Duration.ofSeconds(2));
        next.release();
    }

    /** The watchdog's cadence and renewal outcomes are unit-tested on a hand-moved clock (TimingTest). */
    @Test
    void watchdog_keepsLockFor5xTtl() throws Exception {
        try (LockClient shortLeases =
                        builder(redis.uri()).leaseTime(Duration.ofMillis(600)).build();
                Lease lease = shortLeases.lock("wd").acquire()) {
            // 600 ms, not shorter: a renewal round every 200 ms must be answered within the lease even
            // on a loaded 2-core host (300 ms lost the lease there at a load of 12)
            Thread.sleep(3_000);
            assertThat(lease.isValid()).isTrue();
            assertThat(b.lock("wd").tryAcquire(Duration.ZERO)).isEmpty();
        }
    }

    @Test
    void mutualExclusion_2clients8threads_noViolationNoRejection() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger rejections = new AtomicInteger();
        AtomicLong lastToken = new AtomicLong();
        Workers.run("mx", 16, Duration.ofSeconds(120), worker -> {
            DistributedLock lock = (worker % 2 == 0 ? a : b).lock("mx");
            for (int n = 0; n < 30; n++) {
                try (Lease lease = lock.acquire()) {
                    if (inside.incrementAndGet() != 1) {
                        violations.incrementAndGet();
                    }
                    long token = lease.fencingToken();
                    if (lastToken.getAndAccumulate(token, Math::max) > token) {
                        rejections.incrementAndGet();
                    }
                    inside.decrementAndGet();
                }
            }
        });
        assertThat(violations).hasValue(0);
        assertThat(rejections).hasValue(0);
    }

    @Test
    void expireIn_setsTheFixedLeasesTimeInRedis_laterAndEarlier_andTheLockFreesThen() throws Exception {
        Lease lease =
                a.lock("exp").tryAcquire(Duration.ZERO, Duration.ofSeconds(2)).orElseThrow();
        assertThat(lease.expireIn(Duration.ofSeconds(20))).isTrue();
        assertThat((Long) redis.command("PTTL", "dlock:{exp}")).isBetween(15_000L, 20_000L);
        assertThat(lease.remaining()).isGreaterThan(Duration.ofSeconds(15));
        assertThat(lease.expireIn(Duration.ofMillis(300))).isTrue();
        assertThat((Long) redis.command("PTTL", "dlock:{exp}")).isBetween(1L, 300L);
        assertThat(lease.remaining()).isLessThanOrEqualTo(Duration.ofMillis(300));
        Lease next = b.lock("exp").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.expireIn(Duration.ofSeconds(1)))
                .as("ended: nothing set")
                .isFalse();
        assertThat((Long) redis.command("PTTL", "dlock:{exp}")).isGreaterThan(1_000L);
        next.release();
    }

    @Test
    void badInput_isRejectedBeforeIo() {
        assertThatThrownBy(() -> a.lock(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("name");
        assertThatThrownBy(() -> a.lock(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name");
        assertThatThrownBy(() -> a.lock("x".repeat(513))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> a.lock("x").tryAcquire(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> a.lock("x").tryAcquire(Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTime");
        assertThatThrownBy(() -> a.lock("x").tryLock(Long.MAX_VALUE, TimeUnit.DAYS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> connect("http://x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redisUri");
    }

    @Test
    void wrongType_namesKey_andOverwritesNothing() {
        redis.command("SET", "dlock:{typed}", "v");
        assertThatThrownBy(() -> a.lock("typed").tryLock())
                .isInstanceOf(LockServerException.class)
                .hasMessageContaining("dlock:{typed}");
        assertThat(redis.command("GET", "dlock:{typed}")).isEqualTo("v");
    }

    @Test
    void fencingKeyOfAnotherType_namesKey_andWritesNothing() {
        redis.command("HSET", "dlock:{hfence}:fence", "f", "v");
        assertThatThrownBy(() -> a.lock("hfence").tryLock())
                .isInstanceOf(LockServerException.class)
                .hasMessageContaining("dlock:{hfence}:fence");
        assertThat(redis.command("HGET", "dlock:{hfence}:fence", "f")).isEqualTo("v");
        assertThat(redis.command("EXISTS", "dlock:{hfence}")).isEqualTo(0L);
    }

    @Test
    void fencingKeyNotANumber_isRefused_andPutBack() {
        redis.command("SET", "dlock:{sfence}:fence", "twelve");
        assertThatThrownBy(() -> a.lock("sfence").tryLock())
                .isInstanceOf(LockServerException.class)
                .hasMessageContaining("dlock:{sfence}:fence")
                .hasMessageContaining("does not hold a number");
        assertThat(redis.command("GET", "dlock:{sfence}:fence")).isEqualTo("twelve");
        assertThat(redis.command("PTTL", "dlock:{sfence}:fence")).isEqualTo(-1L);
        assertThat(redis.command("EXISTS", "dlock:{sfence}")).isEqualTo(0L);
    }

    @Test
    void fencingCounter_holdsTheLastToken_andExpiresSevenDaysAfterTheLastAcquire() {
        Lease lease = a.lock("counter").acquire();
        assertThat(redis.command("GET", "dlock:{counter}:fence")).isEqualTo(Long.toString(lease.fencingToken()));
        long week = Duration.ofDays(7).toMillis();
        assertThat((Long) redis.command("PTTL", "dlock:{counter}:fence")).isBetween(week - 60_000, week);
        lease.release();
    }

    @Test
    void fencingCounterAheadOfTheClock_nextTokenIsOnePastIt() {
        long ahead = 4_000_000_000_000_000L; // about 2096 in µs
        redis.command("SET", "dlock:{afence}:fence", Long.toString(ahead));
        Lease first = a.lock("afence").acquire();
        assertThat(first.fencingToken()).isEqualTo(ahead + 1);
        first.release();
        assertThat(b.lock("afence").acquire().fencingToken()).isEqualTo(ahead + 2);
        assertThat(redis.command("GET", "dlock:{afence}:fence")).isEqualTo(Long.toString(ahead + 2));
    }

    @Test
    void redisDown_failsNamingUri() {
        assertThatThrownBy(() -> builder("redis://127.0.0.1:1")
                        .commandTimeout(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("127.0.0.1:1");
    }

    @Test
    void newCondition_isUnsupported() {
        assertThatThrownBy(() -> a.lock("c").newCondition()).isInstanceOf(UnsupportedOperationException.class);
    }
}
