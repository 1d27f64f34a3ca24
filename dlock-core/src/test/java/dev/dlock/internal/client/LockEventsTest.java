package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockListener;
import dev.dlock.LockLostException;
import dev.dlock.internal.testing.FakeTransport;
import dev.dlock.internal.testing.ManualScheduler;
import dev.dlock.spi.RedisReplyException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The events a {@link LockListener} hears, on a scripted transport and a manual clock: each acquire's
 * outcome with its wait, each hold's start and its one end, the watchdog's renewals; and a listener
 * that throws changes nothing about the lock.
 */
final class LockEventsTest {
    private static final long LEASE_MS = 3_000; // watchdog rounds every 1 s

    private final FakeTransport redis = new FakeTransport();
    private final ManualScheduler time = new ManualScheduler();
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final LockListener recorder = new LockListener() {
        @Override
        public void acquire(String lockName, Outcome outcome, Duration waited) {
            heard.add("acquire " + lockName + " " + outcome + " " + waited.toMillis());
        }

        @Override
        public void holdStarted(String lockName) {
            heard.add("started " + lockName);
        }

        @Override
        public void holdReleased(String lockName) {
            heard.add("released " + lockName);
        }

        @Override
        public void holdLost(String lockName, LockLostException loss) {
            heard.add("lost " + lockName);
        }

        @Override
        public void holdExpired(String lockName, LockLostException end) {
            heard.add("expired " + lockName);
        }

        @Override
        public void renewal(int holds, boolean succeeded) {
            heard.add("renewal " + holds + " " + succeeded);
        }
    };
    private final LockListener throwing = new LockListener() {
        @Override
        public void holdStarted(String lockName) {
            throw new IllegalStateException("a broken listener");
        }
    };
    private final RedisLockClient client =
            RedisLockClient.on(redis, LEASE_MS, time.ticker(), time, Runnable::run, throwing, recorder);

    @AfterEach
    void close() {
        redis.answerEverything();
        client.close();
    }

    @Test
    void anAcquireAndItsRelease_reportOutcomeWaitStartAndEnd() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("a").acquireAsync(Duration.ofSeconds(5));
        FakeTransport.Call call = redis.next();
        time.advance(40);
        call.reply().complete(7L);
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        assertThat(heard).containsExactly("started a", "acquire a ACQUIRED 40");
        CompletableFuture<Void> released = CompletableFuture.runAsync(lease::release);
        redis.next().reply().complete(1L);
        released.get(5, TimeUnit.SECONDS);
        assertThat(heard).endsWith("released a");
    }

    @Test
    void busyFailedAndCancelled_areTold() throws Exception {
        CompletableFuture<Lease> busy = client.lock("b").acquireAsync(Duration.ZERO);
        redis.next().reply().complete(-2L - 1000);
        assertThat(busy.get(5, TimeUnit.SECONDS)).isNull();

        CompletableFuture<Lease> failed = client.lock("f").acquireAsync(Duration.ZERO);
        redis.next().reply().completeExceptionally(new RedisReplyException("ERR refused", null));
        assertThat(failed).failsWithin(Duration.ofSeconds(5));

        CompletableFuture<Lease> cancelled = client.lock("c").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call first = redis.next();
        cancelled.cancel(false);
        first.reply().complete(-2L - 1000); // the try answers busy: the attempt sees the cancel and ends
        awaitHeard("acquire c CANCELLED 0");
        assertThat(heard).containsExactly("acquire b BUSY 0", "acquire f FAILED 0", "acquire c CANCELLED 0");
    }

    @Test
    void semaphoreAcquires_reportOutcomeAndWait_asTheMutexDoes() throws Exception {
        CompletableFuture<Lease> acquire = client.semaphore("s", 2).acquireAsync(2, Duration.ofSeconds(5));
        FakeTransport.Call call = redis.next();
        assertThat(call.script().name()).startsWith("semaphore-acquire");
        time.advance(40);
        call.reply().complete(7L);
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        awaitHeard("acquire s ACQUIRED 40");
        assertThat(heard).containsExactly("started s", "acquire s ACQUIRED 40");
        CompletableFuture<Void> released = CompletableFuture.runAsync(lease::release);
        redis.next().reply().complete(1L);
        released.get(5, TimeUnit.SECONDS);
        heard.clear();

        CompletableFuture<Lease> busy = client.semaphore("sb", 2).acquireAsync(1, Duration.ZERO);
        redis.next().reply().complete(-2L - 1000);
        assertThat(busy.get(5, TimeUnit.SECONDS)).isNull();
        awaitHeard("acquire sb BUSY 0");

        CompletableFuture<Lease> failed = client.semaphore("sf", 2).acquireAsync(1, Duration.ZERO);
        redis.next().reply().completeExceptionally(new RedisReplyException("ERR refused", null));
        assertThat(failed).failsWithin(Duration.ofSeconds(5));
        awaitHeard("acquire sf FAILED 0");

        CompletableFuture<Lease> cancelled = client.semaphore("sc", 2).acquireAsync(1, Duration.ofSeconds(30));
        FakeTransport.Call first = redis.next();
        cancelled.cancel(false);
        first.reply().complete(-2L - 1000);
        awaitHeard("acquire sc CANCELLED 0");
        assertThat(heard).containsExactly("acquire sb BUSY 0", "acquire sf FAILED 0", "acquire sc CANCELLED 0");
    }

    @Test
    void watchdogRounds_reportRenewals_andAHoldTheRenewalFindsGoneIsLost() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("w").acquireAsync(Duration.ZERO);
        redis.next().reply().complete(3L);
        acquire.get(5, TimeUnit.SECONDS);
        time.advance(1000);
        redis.next().reply().complete(List.of(1L));
        time.advance(1000);
        redis.next().reply().completeExceptionally(new IllegalStateException("no answer"));
        time.advance(1000);
        redis.next().reply().complete(List.of(0L));
        assertThat(heard)
                .containsExactly(
                        "started w",
                        "acquire w ACQUIRED 0",
                        "renewal 1 true",
                        "renewal 1 false",
                        "renewal 1 true",
                        "lost w");
    }

    @Test
    void aFixedLeaseRunningOut_isAnExpiry_notALoss() throws Exception {
        CompletableFuture<Optional<Lease>> acquire = CompletableFuture.supplyAsync(
                () -> client.lock("x").tryAcquire(Duration.ZERO, Duration.ofMillis(1000)));
        redis.next().reply().complete(4L);
        Lease lease = acquire.get(5, TimeUnit.SECONDS).orElseThrow();
        time.advance(988); // 1000 - 1% - 2 ms
        assertThat(lease.isValid()).isFalse();
        assertThat(heard).containsExactly("started x", "acquire x ACQUIRED 0", "expired x");
    }

    @Test
    void aHoldOpenAtClose_isReportedReleased() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("z").acquireAsync(Duration.ZERO);
        redis.next().reply().complete(5L);
        acquire.get(5, TimeUnit.SECONDS);
        redis.answerEverything();
        client.close();
        assertThat(heard).containsExactly("started z", "acquire z ACQUIRED 0", "released z");
    }

    private void awaitHeard(String event) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!heard.contains(event) && System.nanoTime() < end) {
            Thread.sleep(5);
        }
    }
}
