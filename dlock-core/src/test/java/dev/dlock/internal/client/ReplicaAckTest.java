package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockLostException;
import dev.dlock.LockReplicationException;
import dev.dlock.LockServerException;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.testing.FakeTransport;
import dev.dlock.internal.testing.ManualScheduler;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code replicaAcks} on a scripted transport: every write that grants or keeps a lock goes through
 * {@code evalReplicated}, and counts only when enough replicas acknowledged it. An unacknowledged
 * take is undone and fails; a hand-off message is not taken on its word but re-taken and
 * acknowledged; an unacknowledged renewal does not extend the lease; a busy reply needs no
 * acknowledgement.
 */
final class ReplicaAckTest {
    private static final long BUSY_30S = -2 - 30_000;

    private final FakeTransport redis = new FakeTransport();
    private LockClient client;

    @AfterEach
    void close() {
        redis.answerEverything();
        if (client != null) {
            client.close();
        }
    }

    private LockClient connect(int replicas) {
        redis.waitsForReplicas = true;
        client = LockClient.builder()
                .redisUri("redis://127.0.0.1:1")
                .transport(config -> redis)
                .replicaAcks(replicas)
                .build();
        return client;
    }

    private FakeTransport.Call nextReplicated() throws InterruptedException {
        FakeTransport.Call call = redis.next();
        assertThat(call.replicated())
                .as(call.script().name() + " waits for replicas")
                .isTrue();
        return call;
    }

    @Test
    void acknowledgedAcquire_holds() throws Exception {
        connect(1);
        CompletableFuture<Optional<Lease>> acquire =
                CompletableFuture.supplyAsync(() -> client.lock("a").tryAcquire(Duration.ZERO));
        FakeTransport.Call call = nextReplicated();
        assertThat(call.script()).isSameAs(Scripts.ACQUIRE);
        call.reply().complete(new Replicated(7L, 1));
        assertThat(acquire.get(5, TimeUnit.SECONDS).orElseThrow().fencingToken())
                .isEqualTo(7);
    }

    @Test
    void unacknowledgedAcquire_isReleasedAgain_andFailsNamingTheCounts() throws Exception {
        connect(2);
        CompletableFuture<Optional<Lease>> acquire =
                CompletableFuture.supplyAsync(() -> client.lock("u").tryAcquire(Duration.ZERO));
        FakeTransport.Call take = nextReplicated();
        take.reply().complete(new Replicated(7L, 1));
        FakeTransport.Call undo = redis.next();
        assertThat(undo.script()).isSameAs(Scripts.RELEASE);
        assertThat(undo.args()).containsExactly(take.args()[0]);
        undo.reply().complete(1L);
        assertThatThrownBy(() -> acquire.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(LockReplicationException.class)
                .hasMessageContaining("acknowledged by 1 of the 2 replica(s)")
                .hasMessageContaining("'u'");
        LockReplicationException e = (LockReplicationException)
                acquire.handle((l, t) -> t.getCause()).get();
        assertThat(e.acknowledged()).isEqualTo(1);
        assertThat(e.required()).isEqualTo(2);
        assertThat(e.key()).isEqualTo("dlock:{u}");
    }

    @Test
    void aFailedWaitAfterTheScript_isTreatedAsUnknown_andUndone() throws Exception {
        connect(1);
        CompletableFuture<Optional<Lease>> acquire =
                CompletableFuture.supplyAsync(() -> client.lock("f").tryAcquire(Duration.ZERO));
        FakeTransport.Call take = nextReplicated();
        take.reply().completeExceptionally(new RedisReplyException("ERR unknown command 'WAITAOF'", null));
        FakeTransport.Call undo = redis.next();
        assertThat(undo.script())
                .as("the script may have run before the wait failed")
                .isSameAs(Scripts.RELEASE);
        assertThat(undo.args()).containsExactly(take.args()[0]);
        undo.reply().complete(1L);
        assertThatThrownBy(() -> acquire.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(LockServerException.class);
    }

    @Test
    void busyReply_needsNoAcknowledgement() throws Exception {
        connect(1);
        CompletableFuture<Optional<Lease>> acquire =
                CompletableFuture.supplyAsync(() -> client.lock("b").tryAcquire(Duration.ZERO));
        nextReplicated().reply().complete(new Replicated(BUSY_30S, 0));
        assertThat(acquire.get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void handOffMessage_isReTakenAndAcknowledged_beforeTheAcquireReturns() throws Exception {
        connect(1);
        CompletableFuture<Lease> acquire = client.lock("h").acquireAsync(Duration.ofSeconds(30));
        nextReplicated().reply().complete(new Replicated(BUSY_30S, 0));
        FakeTransport.Call queue = nextReplicated();
        assertThat(queue.args()[2]).isEqualTo("1");
        queue.reply().complete(new Replicated(BUSY_30S, 1));
        String owner = queue.args()[0];
        String channel = "dlock:{h}:wake:" + client.clientId();
        redis.publish(channel, "g 42 " + queue.args()[4] + " " + owner);
        FakeTransport.Call retake = nextReplicated();
        assertThat(retake.script()).isSameAs(Scripts.ACQUIRE);
        assertThat(retake.args()[0]).isEqualTo(owner);
        assertThat(acquire).as("not taken on the message's word").isNotDone();
        retake.reply().complete(new Replicated(42L, 1));
        assertThat(acquire.get(5, TimeUnit.SECONDS).fencingToken()).isEqualTo(42);
    }

    @Test
    void unacknowledgedExpireIn_throws_andLeavesTheDeadline() throws Exception {
        connect(1);
        CompletableFuture<Optional<Lease>> acquire =
                CompletableFuture.supplyAsync(() -> client.lock("e").tryAcquire(Duration.ZERO, Duration.ofSeconds(10)));
        nextReplicated().reply().complete(new Replicated(3L, 1));
        Lease lease = acquire.get(5, TimeUnit.SECONDS).orElseThrow();
        CompletableFuture<Boolean> set = CompletableFuture.supplyAsync(() -> lease.expireIn(Duration.ofSeconds(60)));
        FakeTransport.Call call = nextReplicated();
        assertThat(call.script()).isSameAs(Scripts.RENEW);
        call.reply().complete(new Replicated(List.of(1L), 0));
        assertThatThrownBy(() -> set.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(LockReplicationException.class);
        assertThat(lease.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void unacknowledgedRenewals_doNotExtendTheLease_untilItIsLost() throws Exception {
        ManualScheduler time = new ManualScheduler();
        redis.waitsForReplicas = true;
        RedisLockClient manual = RedisLockClient.on(
                redis, 3_000, time.ticker(), time, Runnable::run, new ReplicaAck(1, Duration.ofMillis(500), false));
        client = manual;
        CompletableFuture<Lease> acquire = manual.lock("w").acquireAsync(Duration.ZERO);
        nextReplicated().reply().complete(new Replicated(5L, 1));
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        lease.onLost(lost::complete);
        long before = lease.remaining().toMillis();
        time.advance(1000);
        FakeTransport.Call renew = redis.poll(0);
        assertThat(renew).isNotNull();
        assertThat(renew.replicated()).isTrue();
        renew.reply().complete(new Replicated(List.of(1L), 0));
        assertThat(lease.remaining().toMillis()).as("not extended").isEqualTo(before - 1000);
        time.advance(1000);
        redis.poll(0).reply().complete(new Replicated(List.of(1L), 1)); // acknowledged: extended
        assertThat(lease.remaining().toMillis()).isEqualTo(before);
        time.advance(1000);
        redis.poll(0).reply().complete(new Replicated(List.of(1L), 0));
        time.advance(1000);
        redis.poll(0).reply().complete(new Replicated(List.of(1L), 0));
        time.advance(1000);
        assertThat(lease.isValid()).isFalse();
        assertThat(lost).isDone();
    }

    @Test
    void aTransportThatCannotWait_isRefusedAtBuild() {
        redis.waitsForReplicas = false;
        assertThatThrownBy(() -> LockClient.builder()
                        .redisUri("redis://127.0.0.1:1")
                        .transport(config -> redis)
                        .replicaAcks(1)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaAcks");
    }

    @Test
    void badSettings_areRefusedBeforeAnyIo() {
        LockClient.Builder builder = LockClient.builder()
                .redisUri("redis://127.0.0.1:1")
                .transport(config -> {
                    throw new AssertionError("no connect expected");
                });
        assertThatThrownBy(() -> builder.replicaAcks(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaAcks");
        assertThatThrownBy(() -> builder.replicaAcks(1).replicaAckTimeout(null).build())
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("replicaAckTimeout");
        assertThatThrownBy(() -> builder.replicaAcks(1)
                        .leaseTime(Duration.ofSeconds(1))
                        .replicaAckTimeout(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("replicaAckTimeout must be shorter than the leaseTime");
    }
}
