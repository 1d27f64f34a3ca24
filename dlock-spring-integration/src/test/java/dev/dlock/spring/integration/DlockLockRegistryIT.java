package dev.dlock.spring.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.contract.Workers;
import dev.dlock.resp.RespTransportFactory;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.integration.support.locks.LockRegistry;

/** The registry's locks as Spring Integration code uses them, on two clients of a real redis-server. */
final class DlockLockRegistryIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final Duration LEASE = Duration.ofMillis(900);

    private LockClient clientA;
    private LockClient clientB;
    private DlockLockRegistry a;
    private DlockLockRegistry b;

    @BeforeEach
    void open() {
        clientA = client();
        clientB = client();
        a = new DlockLockRegistry(clientA, "reg");
        b = new DlockLockRegistry(clientB, "reg");
    }

    @AfterEach
    void close() {
        clientA.close();
        clientB.close();
    }

    private static LockClient client() {
        return LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new RespTransportFactory())
                .leaseTime(LEASE)
                .build();
    }

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    @Test
    void obtain_returnsTheDistributedLockOfTheKey_underTheRegistryKey() {
        assertThat(a.obtain("orders").name()).isEqualTo("reg:orders");
        assertThat(new DlockLockRegistry(clientA).obtain("orders").name()).isEqualTo("orders");
        assertThatThrownBy(() -> a.obtain(42)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DlockLockRegistry(clientA, " ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tryLock_excludesOtherProcesses_untilTheLastUnlock() {
        Lock mine = a.obtain("x");
        assertThat(mine.tryLock()).isTrue();
        assertThat(mine.tryLock()).isTrue(); // reentrant
        assertThat(b.obtain("x").tryLock()).isFalse();
        assertThat(new DlockLockRegistry(clientB, "other").obtain("x").tryLock())
                .as("another registry key is another lock")
                .isTrue();
        mine.unlock();
        assertThat(b.obtain("x").tryLock()).isFalse();
        a.obtain("x").unlock(); // another view of the same key: the hold is the thread's, not the object's
        assertThat(b.obtain("x").tryLock()).isTrue();
        b.obtain("x").unlock();
        new DlockLockRegistry(clientB, "other").obtain("x").unlock();
    }

    @Test
    void unlock_byAThreadThatDoesNotHoldIt_throwsIllegalMonitorState() throws Exception {
        Lock lock = a.obtain("owned");
        lock.lock();
        try {
            Workers.run("stranger", 1, Duration.ofSeconds(10), w -> {
                assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
                assertThatThrownBy(() -> a.obtain("owned").unlock()).isInstanceOf(IllegalMonitorStateException.class);
                assertThat(a.obtain("owned").tryLock())
                        .as("another thread of the same client")
                        .isFalse();
            });
            assertThat(b.obtain("owned").tryLock()).isFalse();
        } finally {
            lock.unlock();
        }
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void tryLockWithTimeout_getsTheLockWhenTheHolderInAnotherProcessUnlocks() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch waiting = new CountDownLatch(1);
        Workers.run("holder-waiter", 2, Duration.ofSeconds(20), w -> {
            if (w == 0) {
                Lock lock = a.obtain("wait");
                lock.lock();
                held.countDown();
                assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
                Thread.sleep(200);
                lock.unlock();
            } else {
                assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
                Lock lock = b.obtain("wait");
                waiting.countDown();
                assertThat(lock.tryLock(scaled(10_000).toMillis(), TimeUnit.MILLISECONDS))
                        .isTrue();
                lock.unlock();
            }
        });
    }

    @Test
    void executeLocked_runsOneAtATime_acrossTwoClients() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        Workers.run("executeLocked", 4, Duration.ofSeconds(60), w -> {
            LockRegistry registry = w % 2 == 0 ? a : b;
            for (int i = 0; i < 10; i++) {
                registry.executeLocked("counter", () -> {
                    assertThat(inside.incrementAndGet()).isEqualTo(1);
                    Thread.sleep(2);
                    runs.incrementAndGet();
                    inside.decrementAndGet();
                });
            }
        });
        assertThat(runs).hasValue(40);
    }

    @Test
    void renewLock_needsTheCurrentThreadsHold_andLeavesAtLeastHalfTheLease() throws Exception {
        assertThatThrownBy(() -> a.renewLock("renew")).isInstanceOf(IllegalStateException.class);
        DistributedLock lock = a.obtain("renew");
        lock.lock();
        try {
            Thread.sleep(LEASE.toMillis() / 2);
            a.renewLock("renew");
            assertThat(lock.remaining()).isGreaterThanOrEqualTo(LEASE.dividedBy(2));
            assertThat(lock.getHoldCount()).isEqualTo(1);
            Workers.run(
                    "other-thread",
                    1,
                    Duration.ofSeconds(10),
                    w -> assertThatThrownBy(() -> a.renewLock("renew")).isInstanceOf(IllegalStateException.class));
        } finally {
            lock.unlock();
        }
    }

    @Test
    void renewLock_ofAHoldThatWasLost_throwsTheLoss() throws Exception {
        DistributedLock lock = a.obtain("lost");
        lock.lock();
        long token = lock.fencingToken();
        clientB.admin().forceUnlock("reg:lost");
        long deadline = System.nanoTime() + scaled(5_000).toNanos();
        while (lock.isHeldByCurrentThread()) { // until the watchdog's next renewal finds the key gone
            assertThat(System.nanoTime())
                    .as("the loss is noticed within a lease")
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
        assertThatThrownBy(() -> a.renewLock("lost"))
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("reg:lost")
                .hasMessageContaining(Long.toString(token));
        lock.unlock(); // the loss was reported once, by renewLock; the unlock drops the hold quietly
        assertThat(lock.getHoldCount()).isZero();
        assertThat(b.obtain("lost").tryLock()).isTrue();
        b.obtain("lost").unlock();
    }

    @Test
    void expireUnusedOlderThan_keepsHeldLocksHeld() {
        Lock lock = a.obtain("kept");
        lock.lock();
        a.expireUnusedOlderThan(0);
        assertThat(b.obtain("kept").tryLock()).isFalse();
        lock.unlock();
        a.expireUnusedOlderThan(0);
        assertThat(b.obtain("kept").tryLock()).isTrue();
        b.obtain("kept").unlock();
    }
}
