package dev.dlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockClient;
import dev.dlock.contract.Workers;
import dev.dlock.resp.RespTransportFactory;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.KeepAliveForTests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What ShedLock's own provider tests check of every {@code LockProvider}, written anew for dlock
 * against a real redis-server: two providers on two clients stand for two nodes.
 */
final class DlockLockProviderIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private LockClient clientA;
    private LockClient clientB;
    private DlockLockProvider a;
    private DlockLockProvider b;

    @BeforeEach
    void open() {
        clientA = client();
        clientB = client();
        a = new DlockLockProvider(clientA);
        b = new DlockLockProvider(clientB);
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
                .build();
    }

    static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(ClockProvider.now(), name, atMost, atLeast);
    }

    static LockConfiguration config(String name) {
        return config(name, Duration.ofMinutes(5), Duration.ZERO);
    }

    private boolean isLocked(String name) {
        return clientB.lock(name).isLocked();
    }

    private static void sleep(long millis) throws InterruptedException {
        Thread.sleep(Timing.scaled(Duration.ofMillis(millis)).toMillis());
    }

    @Test
    void lock_takesTheLock_andUnlockFreesIt() {
        SimpleLock lock = a.lock(config("job")).orElseThrow();
        assertThat(isLocked("job")).isTrue();
        lock.unlock();
        assertThat(isLocked("job")).isFalse();
    }

    @Test
    void secondLock_whileHeld_isEmpty_onThisNodeAndOnAnother() {
        SimpleLock lock = a.lock(config("job")).orElseThrow();
        assertThat(a.lock(config("job"))).isEmpty();
        assertThat(b.lock(config("job"))).isEmpty();
        lock.unlock();
        b.lock(config("job")).orElseThrow().unlock();
    }

    @Test
    void twoNames_areTwoIndependentLocks() {
        SimpleLock one = a.lock(config("one")).orElseThrow();
        SimpleLock two = b.lock(config("two")).orElseThrow();
        one.unlock();
        two.unlock();
    }

    @Test
    void lock_canBeTakenRightAfterUnlock_again_andAgain() {
        for (int i = 0; i < 10; i++) {
            SimpleLock lock = (i % 2 == 0 ? a : b).lock(config("job")).orElseThrow();
            assertThat(a.lock(config("job"))).isEmpty();
            assertThat(b.lock(config("job"))).isEmpty();
            lock.unlock();
        }
    }

    @Test
    void unlock_twice_throwsIllegalState() {
        SimpleLock lock = a.lock(config("job")).orElseThrow();
        lock.unlock();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void lockAtMostFor_freesTheLockWithoutUnlock_andNotBefore() throws Exception {
        SimpleLock lock =
                a.lock(config("job", Duration.ofMillis(600), Duration.ZERO)).orElseThrow();
        long start = System.nanoTime();
        Thread.sleep(300);
        assertThat(b.lock(config("job"))).as("before lockAtMostFor").isEmpty();
        long deadline = start + Timing.scaled(Duration.ofSeconds(3)).toNanos();
        Optional<SimpleLock> next;
        while ((next = b.lock(config("job"))).isEmpty()) {
            assertThat(System.nanoTime()).as("freed soon after lockAtMostFor").isLessThan(deadline);
            Thread.sleep(10);
        }
        assertThat(System.nanoTime() - start)
                .as("not renewed past lockAtMostFor, and not freed long before it (1% + 2 ms drift allowance)")
                .isGreaterThanOrEqualTo(Duration.ofMillis(580).toNanos());
        next.get().unlock();
        lock.unlock(); // the job ran past lockAtMostFor: logged, not thrown, as ShedLock's own providers
        assertThat(isLocked("job")).isFalse();
    }

    @Test
    void lockAtLeastFor_equalToLockAtMostFor_keepsTheLockAfterUnlock_untilItEnds() throws Exception {
        Duration window = Duration.ofMillis(800);
        SimpleLock lock = a.lock(config("job", window, window)).orElseThrow();
        lock.unlock();
        assertThat(b.lock(config("job"))).as("within lockAtLeastFor").isEmpty();
        sleep(window.toMillis() + 200);
        b.lock(config("job")).orElseThrow().unlock();
    }

    @Test
    void isAnExtensibleLockProvider() {
        assertThat(a).isInstanceOf(ExtensibleLockProvider.class);
    }

    @Test
    void unlock_afterLockAtLeastFor_freesTheLock() throws Exception {
        SimpleLock lock = a.lock(config("job", Duration.ofSeconds(10), Duration.ofMillis(200)))
                .orElseThrow();
        sleep(300);
        lock.unlock();
        assertThat(isLocked("job")).isFalse();
    }

    @Test
    void lockAtMostFor_below100ms_isRefused() {
        assertThatThrownBy(() -> a.lock(config("job", Duration.ofMillis(50), Duration.ZERO)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("100");
    }

    @Test
    void manyThreadsOnTwoNodes_neverHoldOneLockTogether() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger runs = new AtomicInteger();
        Workers.run("shedlock", 4, Duration.ofSeconds(60), w -> {
            DlockLockProvider provider = w % 2 == 0 ? a : b;
            for (int i = 0; i < 100; i++) {
                Optional<SimpleLock> lock = provider.lock(config("fuzz"));
                if (lock.isPresent()) {
                    assertThat(inside.incrementAndGet()).isEqualTo(1);
                    runs.incrementAndGet();
                    Thread.sleep(1);
                    inside.decrementAndGet();
                    lock.get().unlock();
                }
            }
        });
        assertThat(runs.get()).isPositive();
    }

    /**
     * ShedLock's lockAtLeastFor and extend semantics, on {@link dev.dlock.Lease#expireIn}, which sets a
     * held fixed lease's remaining time (shorter or longer) from its holder.
     */
    @Nested
    final class LockAtLeastForAndExtend {
        @Test
        void unlock_keepsTheLockUntilLockAtLeastFor_thenFreesIt() throws Exception {
            SimpleLock lock = a.lock(config("job", Duration.ofSeconds(4), Duration.ofSeconds(2)))
                    .orElseThrow();
            lock.unlock();
            assertThat(b.lock(config("job"))).as("within lockAtLeastFor").isEmpty();
            sleep(2200);
            b.lock(config("job")).orElseThrow().unlock();
        }

        @Test
        void extend_movesLockAtMostFor_fromNow() throws Exception {
            SimpleLock lock = a.lock(config("job", Duration.ofMillis(1000), Duration.ZERO))
                    .orElseThrow();
            SimpleLock extended =
                    lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
            sleep(1200);
            assertThat(isLocked("job")).isTrue();
            extended.unlock();
            assertThat(isLocked("job")).isFalse();
        }

        @Test
        void extend_withLockAtLeastFor_keepsTheLockAfterUnlock() {
            SimpleLock lock =
                    a.lock(config("job", Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
            SimpleLock extended =
                    lock.extend(Duration.ofSeconds(10), Duration.ofSeconds(9)).orElseThrow();
            extended.unlock();
            assertThat(isLocked("job")).isTrue();
            assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
        }

        @Test
        void extend_ofAnExpiredLock_isEmpty() throws Exception {
            SimpleLock lock =
                    a.lock(config("job", Duration.ofMillis(100), Duration.ZERO)).orElseThrow();
            sleep(300);
            assertThat(lock.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
            assertThat(isLocked("job")).isFalse();
        }

        @Test
        void extend_canShortenTheLock_whichThenEndsWithoutUnlock() throws Exception {
            SimpleLock lock =
                    a.lock(config("job", Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
            SimpleLock extended =
                    lock.extend(Duration.ofMillis(300), Duration.ZERO).orElseThrow();
            assertThat(isLocked("job")).isTrue();
            sleep(600);
            b.lock(config("job")).orElseThrow().unlock();
            extended.unlock(); // ran past the shortened lockAtMostFor: logged, not thrown
        }

        @Test
        void extend_again_andAgain_eachLockInvalidatesTheOneBefore() throws Exception {
            SimpleLock lock =
                    a.lock(config("job", Duration.ofMillis(500), Duration.ZERO)).orElseThrow();
            for (int i = 0; i < 4; i++) {
                sleep(250);
                SimpleLock next =
                        lock.extend(Duration.ofMillis(500), Duration.ZERO).orElseThrow();
                assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
                lock = next;
            }
            assertThat(b.lock(config("job")))
                    .as("held past the first lockAtMostFor")
                    .isEmpty();
            lock.unlock();
            assertThat(isLocked("job")).isFalse();
        }

        @Test
        void extend_afterUnlock_throwsIllegalState() {
            SimpleLock lock = a.lock(config("job")).orElseThrow();
            lock.unlock();
            assertThatThrownBy(() -> lock.extend(Duration.ofMinutes(5), Duration.ZERO))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(isLocked("job")).isFalse();
        }

        @Test
        void extend_ofALockTakenElsewhereMeanwhile_isEmpty_andLeavesTheOtherHolderAlone() throws Exception {
            SimpleLock lock =
                    a.lock(config("job", Duration.ofMillis(200), Duration.ZERO)).orElseThrow();
            sleep(400);
            SimpleLock other = b.lock(config("job")).orElseThrow();
            assertThat(lock.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
            assertThat(a.lock(config("job"))).isEmpty();
            other.unlock();
            assertThat(isLocked("job")).isFalse();
        }

        /**
         * ShedLock's KeepAliveLockProvider extends the lock every lockAtMostFor / 2 while the job
         * runs: the lock outlives lockAtMostFor, and the unlock frees it. (Its public constructor asks
         * for a lockAtMostFor of 30 s at least; the test takes 1 s through the package-private one.)
         */
        @Test
        void keepAliveLockProvider_keepsAJobsLock_pastLockAtMostFor_untilTheUnlock() throws Exception {
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
            try {
                LockProvider keepAlive = KeepAliveForTests.keepAlive(a, executor, Duration.ofMillis(100));
                Duration atMost = Timing.scaled(Duration.ofSeconds(1));
                SimpleLock lock =
                        keepAlive.lock(config("job", atMost, Duration.ZERO)).orElseThrow();
                long end = System.nanoTime() + 3 * atMost.toNanos();
                while (System.nanoTime() < end) { // the job, running three times lockAtMostFor
                    assertThat(b.lock(config("job")))
                            .as("held while the job runs")
                            .isEmpty();
                    Thread.sleep(50);
                }
                lock.unlock();
                assertThat(isLocked("job")).isFalse();
                b.lock(config("job")).orElseThrow().unlock();
            } finally {
                executor.shutdownNow();
            }
        }
    }
}
