package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Short leases: no acquire returns a hold with less than half of its lease time left, however long
 * the waiter slept before the hand-off, and 100 ms (the minimum) leases still exclude each other.
 */
public abstract class ShortLeaseContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ShortLeaseContract() {}

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private final List<LockClient> clients = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    private LockClient client(Duration leaseTime) {
        LockClient c = builder(redis.server().uri()).leaseTime(leaseTime).build();
        clients.add(c);
        return c;
    }

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS))
                .as("worker threads ended")
                .isTrue();
        clients.forEach(LockClient::close);
    }

    /**
     * A 200 ms lease waits behind a holder whose key lives 5 s; the holder releases 280 ms after the
     * waiter queued, longer than the waiter's lease but before its next queue refresh.
     */
    @Test
    void handOffAfterALongSleep_returnsAHoldValidForHalfItsLease_andKeepsOthersOut() throws Exception {
        LockClient shortLeases = client(Duration.ofMillis(200));
        LockClient other = client(Duration.ofSeconds(5));
        Lease held = other.lock("s1")
                .tryAcquire(Duration.ZERO, Duration.ofSeconds(5))
                .orElseThrow();
        Future<Boolean> inside = threads.submit(() -> {
            DistributedLock lock = shortLeases.lock("s1");
            lock.lock();
            boolean held0 = lock.isHeldByCurrentThread() && lock.remaining().toMillis() >= 90;
            held0 &= lock.fencingToken() == lock.info().fencingToken();
            // stay inside for 150 ms while the other client keeps trying
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150);
            boolean excluded = true;
            while (System.nanoTime() < until) {
                if (other.lock("s1").tryLock()) {
                    excluded = false;
                    other.lock("s1").unlock();
                }
                Thread.sleep(5);
            }
            lock.unlock();
            return held0 && excluded;
        });
        WaitQueue.awaitSize(redis.server(), "s1", 1);
        Thread.sleep(280);
        held.release();
        assertThat(inside.get(10, TimeUnit.SECONDS))
                .as("lock() returned a valid hold and nobody else entered while it was held")
                .isTrue();

        held = other.lock("s1").tryAcquire(Duration.ZERO, Duration.ofSeconds(5)).orElseThrow();
        Future<Lease> lease = threads.submit(() -> shortLeases.lock("s1").acquire());
        WaitQueue.awaitSize(redis.server(), "s1", 1);
        Thread.sleep(280);
        held.release();
        Lease got = lease.get(10, TimeUnit.SECONDS);
        assertThat(got.remaining())
                .as("remaining validity of a handed-over 200 ms lease")
                .isGreaterThanOrEqualTo(Duration.ofMillis(90));
        got.release();
    }

    /**
     * Holds of 100 ms leases, taken in turn by four threads of two clients, never overlap. On this
     * shared host a hold can be lost for real (no renewal got through while the machine stalled); a
     * hold that was still valid when it left its critical section was valid all through it, and
     * only such holds are checked against each other. Losses are counted, and must stay rare.
     */
    @Test
    void minimumLeases_excludeEachOther_acrossClientsAndThreads() throws Exception {
        LockClient a = client(Duration.ofMillis(100));
        LockClient b = client(Duration.ofMillis(100));
        List<long[]> validHolds = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicInteger lost = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        List<Future<?>> workers = new ArrayList<>();
        for (LockClient c : List.of(a, b, a, b)) {
            workers.add(threads.submit(() -> {
                DistributedLock lock = c.lock("s2");
                while (System.nanoTime() < until) {
                    if (!lock.tryLock(1, TimeUnit.SECONDS)) {
                        continue;
                    }
                    long entered = System.nanoTime();
                    boolean validAtEntry = lock.isHeldByCurrentThread();
                    Thread.sleep(ThreadLocalRandom.current().nextInt(3));
                    boolean validAtExit = lock.isHeldByCurrentThread();
                    long left = System.nanoTime();
                    entries.incrementAndGet();
                    assertThat(validAtEntry || !validAtExit)
                            .as("valid when tryLock returned")
                            .isTrue();
                    if (validAtExit) {
                        validHolds.add(new long[] {entered, left});
                    }
                    try {
                        lock.unlock();
                    } catch (LockLostException e) {
                        lost.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : workers) {
            w.get(Timing.scaled(Duration.ofSeconds(20)).toMillis(), TimeUnit.MILLISECONDS);
        }
        List<long[]> sorted = new ArrayList<>(validHolds);
        sorted.sort(java.util.Comparator.comparingLong(h -> h[0]));
        for (int i = 1; i < sorted.size(); i++) {
            assertThat(sorted.get(i)[0])
                    .as("hold %d entered before the one before it left", i)
                    .isGreaterThanOrEqualTo(sorted.get(i - 1)[1]);
        }
        assertThat(entries.get()).as("entries").isGreaterThan(20);
        assertThat(lost.get()).as("holds lost of %d", entries.get()).isLessThanOrEqualTo(entries.get() / 10);
    }

    @Test
    void reentryOfAHoldLostMeanwhile_throwsTheLoss_once() throws Exception {
        LockClient c = client(Duration.ofMillis(300));
        DistributedLock lock = c.lock("s4");
        Future<Throwable> thread = threads.submit(() -> {
            lock.lock();
            redis.server().pause(); // no renewal gets through: the hold runs out
            try {
                Thread.sleep(500);
            } finally {
                redis.server().resume();
            }
            try {
                lock.lock();
                return null;
            } catch (LockLostException e) {
                lock.unlock(); // the outer hold ends without a second report
                return e;
            }
        });
        assertThat(thread.get(10, TimeUnit.SECONDS))
                .as("re-entering a lost hold")
                .isInstanceOf(LockLostException.class);
        assertThat(lock.getHoldCount()).isZero();
        assertThatThrownBy(lock::fencingToken).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(lock::remaining).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void leasesShorterThanTheMinimum_areRejectedBeforeAnyIo() {
        assertThatThrownBy(() -> builder(redis.server().uri())
                        .leaseTime(Duration.ofMillis(99))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTime");
        LockClient c = client(Duration.ofSeconds(1));
        assertThatThrownBy(() -> c.lock("s3").tryAcquire(Duration.ZERO, Duration.ofMillis(99)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTime")
                .hasMessageContaining("100 ms");
    }
}
