package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
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
 * {@link Lease#expireIn} on a scripted transport and a manual clock: it moves a fixed lease's end
 * later or earlier with one owner-checked PEXPIRE, a shortening counts while the command is on its
 * way, the lease then ends at the new time (not at the old one), and a key Redis no longer has for
 * the owner loses the lease.
 */
final class ExpireInTest {
    private final FakeTransport redis = new FakeTransport();
    private final ManualScheduler time = new ManualScheduler();
    private final RedisLockClient client = RedisLockClient.on(redis, 3_000, time.ticker(), time, Runnable::run);

    @AfterEach
    void close() {
        redis.answerEverything();
        client.close();
    }

    private Lease fixed(String name, long leaseMillis) throws Exception {
        CompletableFuture<Optional<Lease>> acquire = CompletableFuture.supplyAsync(
                () -> client.lock(name).tryAcquire(Duration.ZERO, Duration.ofMillis(leaseMillis)));
        redis.next().reply().complete(9L);
        return acquire.get(5, TimeUnit.SECONDS).orElseThrow();
    }

    private static long millis(Duration d) {
        return d.toMillis();
    }

    @Test
    void lengthening_movesTheEndLater_andTheOldDeadlineNoLongerEndsIt() throws Exception {
        Lease lease = fixed("long", 1000);
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        lease.onLost(lost::complete);
        CompletableFuture<Boolean> set = CompletableFuture.supplyAsync(() -> lease.expireIn(Duration.ofSeconds(5)));
        FakeTransport.Call call = redis.next();
        assertThat(call.script()).isSameAs(Scripts.RENEW);
        assertThat(call.keys()).containsExactly("dlock:{long}");
        assertThat(call.args()).containsExactly("5000", client.clientId() + ":lease-1");
        assertThat(millis(lease.remaining())).as("unchanged while on its way").isEqualTo(1000 - 10 - 2);
        call.reply().complete(List.of(1L));
        assertThat(set.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(millis(lease.remaining())).isEqualTo(5000 - 50 - 2);

        time.advance(1000); // the old deadline and its timer pass
        assertThat(lease.isValid()).isTrue();
        assertThat(lost).isNotDone();
        assertThat(redis.poll(0)).as("no release at the old deadline").isNull();
        time.advance(4948 - 1000);
        assertThat(lease.isValid()).isFalse();
        assertThat(redis.next().script()).as("released at the new end").isSameAs(Scripts.RELEASE);
        assertThat(lost.getNow(null)).hasMessageContaining("set by expireIn ran out");
    }

    @Test
    void shortening_countsWhileTheCommandIsOnItsWay_andEndsTheLeaseAtTheNewTime() throws Exception {
        Lease lease = fixed("short", 10_000);
        CompletableFuture<Boolean> set = CompletableFuture.supplyAsync(() -> lease.expireIn(Duration.ofMillis(50)));
        FakeTransport.Call call = redis.next();
        assertThat(call.args()[0]).isEqualTo("50");
        assertThat(millis(lease.remaining()))
                .as("already short before the reply")
                .isEqualTo(47); // 50 - 1% - 2, in whole ms
        time.advance(10);
        call.reply().complete(List.of(1L));
        assertThat(set.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(millis(lease.remaining())).as("counted from the sending").isEqualTo(37);
        time.advance(38);
        assertThat(lease.isValid()).isFalse();
        assertThat(redis.next().script()).isSameAs(Scripts.RELEASE);
    }

    @Test
    void aKeyNoLongerOurs_losesTheLease_andAnswersFalse() throws Exception {
        Lease lease = fixed("gone", 1000);
        CompletableFuture<Boolean> set = CompletableFuture.supplyAsync(() -> lease.expireIn(Duration.ofSeconds(5)));
        redis.next().reply().complete(List.of(0L));
        assertThat(set.get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.whenLost().getNow(null))
                .hasMessageContaining("setting its remaining time")
                .hasMessageContaining("gone");
        assertThat(lease.expireIn(Duration.ofSeconds(1)))
                .as("lost: nothing sent")
                .isFalse();
        assertThat(redis.poll(0)).isNull();
    }

    @Test
    void watchdogLeasesAndBadTimes_areRefusedBeforeAnyIo() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("renewed").acquireAsync(Duration.ZERO);
        redis.next().reply().complete(1L);
        Lease renewed = acquire.get(5, TimeUnit.SECONDS);
        assertThatThrownBy(() -> renewed.expireIn(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("watchdog");
        Lease fixed = fixed("bad", 1000);
        assertThatThrownBy(() -> fixed.expireIn(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> fixed.expireIn(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> fixed.expireIn(Duration.ofNanos(10))).isInstanceOf(IllegalArgumentException.class);
        assertThat(redis.poll(0)).isNull();
    }
}
