package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockConnectionException;
import dev.dlock.LockLostException;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.testing.FakeTransport;
import dev.dlock.internal.testing.ManualScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's timing against a scripted transport and a clock moved by hand: watchdog rounds,
 * renewal outcomes, fixed-lease expiry, queue refreshes and the validity check at hand-off. Nothing
 * here sleeps.
 */
final class TimingTest {
    private static final long LEASE_MS = 3_000; // watchdog rounds every 1 s
    private static final long BUSY_30S = -2 - 30_000;

    private final FakeTransport redis = new FakeTransport();
    private ManualScheduler time = new ManualScheduler();
    private RedisLockClient client = RedisLockClient.on(redis, LEASE_MS, time.ticker(), time, Runnable::run);

    @AfterEach
    void close() {
        redis.answerEverything();
        client.close();
    }

    private Lease take(String name, long token) throws Exception {
        CompletableFuture<Lease> acquire = client.lock(name).acquireAsync(Duration.ZERO);
        FakeTransport.Call call = redis.next();
        assertThat(call.script()).isSameAs(Scripts.ACQUIRE);
        call.reply().complete(token);
        return acquire.get(5, TimeUnit.SECONDS);
    }

    private FakeTransport.Call nextCall() throws InterruptedException {
        FakeTransport.Call call = redis.poll(0);
        assertThat(call).as("a call was sent").isNotNull();
        return call;
    }

    private void assertNoCall() throws InterruptedException {
        assertThat(redis.poll(0)).as("no call").isNull();
    }

    private static long millis(Duration d) {
        return d.toMillis();
    }

    @Test
    void watchdog_renewsEveryThirdOfTheLease_andEachRenewalCountsFromItsSending() throws Exception {
        Lease lease = take("w", 100);
        assertThat(millis(lease.remaining())).isEqualTo(LEASE_MS - LEASE_MS / 100 - 2);
        time.advance(999);
        assertNoCall();
        time.advance(1);
        FakeTransport.Call renew = nextCall();
        assertThat(renew.script()).isSameAs(Scripts.RENEW);
        assertThat(renew.keys()).containsExactly("dlock:{w}");
        assertThat(renew.args()).containsExactly("3000", client.clientId() + ":lease-1");
        time.advance(200); // the reply comes 200 ms after the sending
        renew.reply().complete(List.of(1L));
        assertThat(millis(lease.remaining())).isEqualTo(LEASE_MS - LEASE_MS / 100 - 2 - 200);
        time.advance(800);
        assertThat(nextCall().script()).isSameAs(Scripts.RENEW);
    }

    @Test
    void renewalsThatFail_keepTheLeaseUntilItsDeadline_thenItIsLostAndReleased() throws Exception {
        Lease lease = take("f", 100);
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        lease.onLost(lost::complete);
        for (int round = 0; round < 2; round++) {
            time.advance(1000);
            nextCall().reply().completeExceptionally(new IllegalStateException("no answer"));
        }
        assertThat(lease.isValid()).isTrue();
        time.advance(968); // the deadline is at 2968 ms
        assertThat(lease.isValid()).as("at its deadline").isFalse();
        assertThat(lost).isNotDone();
        time.advance(32); // the next round finds it overdue
        FakeTransport.Call release = nextCall();
        assertThat(release.script())
                .as("an owner-checked release frees the key if still ours")
                .isSameAs(Scripts.RELEASE);
        assertThat(lost.getNow(null)).hasMessageContaining("could not be renewed");
    }

    @Test
    void renewalThatFindsTheKeyGone_losesTheLeaseAtOnce() throws Exception {
        Lease lease = take("g", 100);
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        lease.onLost(lost::complete);
        time.advance(1000);
        nextCall().reply().complete(List.of(0L));
        assertThat(lost.getNow(null)).hasMessageContaining("found the key gone");
        assertThat(lease.isValid()).isFalse();
    }

    @Test
    void fixedLease_isNeverRenewed_andRunsOutAtItsDeadline() throws Exception {
        CompletableFuture<Optional<Lease>> acquire = CompletableFuture.supplyAsync(
                () -> client.lock("x").tryAcquire(Duration.ZERO, Duration.ofMillis(1000)));
        redis.next().reply().complete(100L);
        Lease lease = acquire.get(5, TimeUnit.SECONDS).orElseThrow();
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        lease.onLost(lost::complete);
        time.advance(987);
        assertNoCall();
        assertThat(lost).isNotDone();
        time.advance(1); // 1000 - 1% - 2 ms
        assertThat(nextCall().script()).isSameAs(Scripts.RELEASE);
        assertThat(lost.getNow(null)).hasMessageContaining("fixed lease time of 1000 ms ran out");
        time.advance(3000);
        assertNoCall();
    }

    /** Runs an acquire to its sleep after a busy queueing try; returns that try. */
    private FakeTransport.Call queued(CompletableFuture<Lease> acquire) throws InterruptedException {
        redis.next().reply().complete(BUSY_30S); // the first try
        FakeTransport.Call queue = redis.next();
        assertThat(queue.args()[2]).isEqualTo("1");
        queue.reply().complete(BUSY_30S);
        assertThat(acquire).isNotDone();
        return queue;
    }

    @Test
    void waiter_refreshesItsQueueEntry_atMostEveryThirdOfItsLease() throws Exception {
        client.close();
        time = new ManualScheduler();
        client = RedisLockClient.on(redis, 300, time.ticker(), time, Runnable::run);
        CompletableFuture<Lease> acquire = client.lock("q").acquireAsync(Duration.ofSeconds(30));
        queued(acquire);
        time.advance(99);
        assertNoCall();
        time.advance(1);
        FakeTransport.Call refresh = nextCall();
        assertThat(refresh.args()[2]).as("a queueing try").isEqualTo("1");
        refresh.reply().complete(BUSY_30S);
        acquire.cancel(true);
    }

    /**
     * A hand-off whose validity, counted from the last busy queueing try, is under half the lease
     * when it arrives (that try's reply was slow) is not returned as it is: one more try re-takes the
     * hold, and the lease counts from that try.
     */
    @Test
    void handOffWithLessThanHalfALeaseLeft_isRetakenBeforeTheAcquireReturns() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("h").acquireAsync(Duration.ofSeconds(30));
        queued(acquire);
        time.advance(1000);
        FakeTransport.Call refresh = nextCall(); // sent at 1000 ms
        String wait = refresh.args()[4];
        redis.publish("dlock:{h}:wake:" + client.clientId(), "g 42 " + wait + " " + refresh.args()[0]);
        time.advance(1600); // the refresh's reply takes 1.6 s: 2968 - 1600 ms left, under half of 3000
        refresh.reply().complete(BUSY_30S);
        assertThat(acquire).as("not returned with 1368 ms left").isNotDone();
        FakeTransport.Call retake = nextCall();
        assertThat(retake.script()).isSameAs(Scripts.ACQUIRE);
        retake.reply().complete(42L); // the granted hold, taken again with a full lease
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        assertThat(lease.fencingToken()).isEqualTo(42);
        assertThat(millis(lease.remaining())).isEqualTo(LEASE_MS - LEASE_MS / 100 - 2);
    }

    @Test
    void aSubscriptionTheTransportNeverConfirms_failsTheWait_andTheNextWaitSubscribesAnew() throws Exception {
        redis.holdSubscribes();
        CompletableFuture<Lease> acquire = client.lock("s").acquireAsync(Duration.ofSeconds(60));
        nextCall().reply().complete(BUSY_30S);
        assertThat(redis.subscribed).hasSize(1);
        time.advance(2000); // the command timeout of RedisLockClient.on: not yet
        FakeTransport.Call poll = nextCall(); // at the refresh interval (1 s), while the subscription is pending
        assertThat(poll.script()).isSameAs(Scripts.ACQUIRE);
        assertThat(poll.args()[2])
                .as("a plain try: not queued, so no grant is missed")
                .isEqualTo("0");
        poll.reply().complete(BUSY_30S);
        assertThat(acquire).isNotDone();
        time.advance(1000); // command timeout + 1 s: the subscription fails (and another try may be due)
        FakeTransport.Call release = nextCall();
        if (release.script() == Scripts.ACQUIRE) {
            release.reply().complete(BUSY_30S);
            release = nextCall();
        }
        assertThat(release.script()).as("the failed wait leaves nothing behind").isSameAs(Scripts.RELEASE);
        release.reply().complete(0L);
        assertThat(acquire).isCompletedExceptionally();
        assertThatThrownBy(acquire::join)
                .cause()
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("was not confirmed within");
        CompletableFuture<Lease> again = client.lock("s").acquireAsync(Duration.ofSeconds(60));
        nextCall().reply().complete(BUSY_30S);
        assertThat(redis.subscribed).as("a fresh SUBSCRIBE, not the stuck one").hasSize(2);
        again.cancel(true);
    }
}
