package dev.dlock.internal.mutex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockLostException;
import dev.dlock.internal.client.RedisLockClient;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.testing.FakeTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The relay inside one client against a scripted transport and a hand-moved clock: the bounds on
 * relays without a round trip, and what each answer of pass.lua leads to.
 */
final class NameRelayTest {
    private static final long LEASE_MS = 30_000;

    private final FakeTransport redis = new FakeTransport();
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final RedisLockClient client = RedisLockClient.on(redis, LEASE_MS, now::get, Runnable::run);

    @AfterEach
    void close() {
        redis.answerEverything();
        client.close();
    }

    /** Takes lock "r" with token 100 through a first try, and lines up {@code waiting} more acquires. */
    private Lease holdWithLine(int waiting, List<CompletableFuture<Lease>> line) throws Exception {
        CompletableFuture<Lease> first = client.lock("r").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call take = redis.next();
        assertThat(take.script()).isSameAs(Scripts.ACQUIRE);
        take.reply().complete(100L);
        Lease held = first.get(5, TimeUnit.SECONDS);
        for (int i = 0; i < waiting; i++) {
            line.add(client.lock("r").acquireAsync(Duration.ofSeconds(30)));
        }
        assertThat(redis.poll(100))
                .as("acquires of the same client wait in line, not in Redis")
                .isNull();
        return held;
    }

    /** Releases on another thread: a release that needs a round trip waits for the scripted reply. */
    private static CompletableFuture<Void> releasing(Lease lease) {
        return CompletableFuture.runAsync(lease::release);
    }

    private static Lease got(CompletableFuture<Lease> f) throws Exception {
        return f.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aCheckedRelay_thenFifteenFreeOnes_thenTheNextChecks() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease current = holdWithLine(NameRelay.BLOCK + 1, line);
        releasing(current);
        FakeTransport.Call pass = redis.next();
        assertThat(pass.script()).isSameAs(Scripts.PASS);
        assertThat(pass.args()).containsExactly(pass.args()[0], "30000", Integer.toString(NameRelay.BLOCK));
        pass.reply().complete(1_000L);
        current = got(line.get(0));
        assertThat(current.fencingToken()).isEqualTo(1_000L);
        for (int i = 1; i < NameRelay.BLOCK; i++) {
            current.release();
            current = got(line.get(i));
            assertThat(current.fencingToken()).isEqualTo(1_000L + i);
        }
        assertThat(redis.poll(50))
                .as("relays within the block need no round trip")
                .isNull();
        releasing(current);
        FakeTransport.Call again = redis.next();
        assertThat(again.script()).as("the block is used up").isSameAs(Scripts.PASS);
        again.reply().complete(5_000L);
        assertThat(got(line.get(NameRelay.BLOCK)).fencingToken()).isEqualTo(5_000L);
    }

    @Test
    void aRelayLaterThanTheCheckWindow_checksAgain() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease current = holdWithLine(3, line);
        releasing(current);
        redis.next().reply().complete(1_000L);
        current = got(line.get(0));
        current.release(); // free: tokens left, within the window
        current = got(line.get(1));
        assertThat(current.fencingToken()).isEqualTo(1_001L);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(NameRelay.CHECK_MILLIS));
        releasing(current);
        assertThat(redis.next().script())
                .as("another client may have queued meanwhile")
                .isSameAs(Scripts.PASS);
    }

    @Test
    void aRelayWithLessThanHalfTheLeaseLeft_checksAgain() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease current = holdWithLine(2, line);
        releasing(current);
        FakeTransport.Call pass = redis.next();
        pass.reply().complete(1_000L);
        current = got(line.get(0));
        // the watchdog's renewals did not get through: less than half the lease is left
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(LEASE_MS / 2 + 1));
        assertThat(current.isValid()).isTrue();
        releasing(current);
        assertThat(redis.next().script()).isSameAs(Scripts.PASS);
    }

    @Test
    void aPassThatFindsAnotherClientQueued_letsTheHeadQueueInRedis() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease current = holdWithLine(1, line);
        releasing(current);
        FakeTransport.Call pass = redis.next();
        pass.reply().complete(0L); // released and handed to the other client
        FakeTransport.Call own = redis.next();
        assertThat(own.script()).isSameAs(Scripts.ACQUIRE);
        assertThat(own.args()[0]).as("the head acquires under its own owner id").isNotEqualTo(pass.args()[0]);
        assertThat(line.get(0)).isNotDone();
    }

    @Test
    void aPassThatFindsTheHoldGone_reportsTheLoss_andTheHeadAcquiresForItself() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease current = holdWithLine(1, line);
        CompletableFuture<Void> released = CompletableFuture.runAsync(current::release);
        FakeTransport.Call pass = redis.next();
        pass.reply().complete(-1L);
        assertThatThrownBy(() -> released.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(LockLostException.class);
        assertThat(redis.next().script()).isSameAs(Scripts.ACQUIRE);
    }

    @Test
    void aFixedLeaseAcquireInLine_isNotRelayedTo() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease current = holdWithLine(0, line);
        CompletableFuture<Lease> fixed = CompletableFuture.supplyAsync(() -> client.lock("r")
                .tryAcquire(Duration.ofSeconds(30), Duration.ofSeconds(2))
                .orElseThrow());
        assertThat(redis.poll(100)).isNull();
        releasing(current);
        FakeTransport.Call release = redis.next();
        assertThat(release.script()).isSameAs(Scripts.RELEASE);
        assertThat(redis.poll(100))
                .as("nothing is sent before Redis has run the release")
                .isNull();
        release.reply().complete(1L);
        FakeTransport.Call own = redis.next();
        assertThat(own.script()).isSameAs(Scripts.ACQUIRE);
        assertThat(own.args()[1]).as("its own lease time").isEqualTo("2000");
        own.reply().complete(200L);
        assertThat(got(fixed).fencingToken()).isEqualTo(200L);
    }

    @Test
    void anIdleGate_leavesTheClientAfterTwoWatchdogRounds_aBusyOneStays() throws Exception {
        List<CompletableFuture<Lease>> line = new ArrayList<>();
        Lease held = holdWithLine(0, line);
        client.watchdogTick();
        redis.next().reply().complete(List.of(1L)); // the renewal of the held lease
        client.watchdogTick();
        redis.next().reply().complete(List.of(1L));
        assertThat(client.gateCount()).as("in use").isEqualTo(1);
        CompletableFuture<Void> released = releasing(held);
        redis.next().reply().complete(1L);
        released.get(5, TimeUnit.SECONDS);
        client.watchdogTick();
        assertThat(client.gateCount())
                .as("idle once: kept for the next acquire")
                .isEqualTo(1);
        client.watchdogTick();
        assertThat(client.gateCount()).as("idle twice: gone").isZero();
    }
}
