package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.internal.script.Scripts;
import dev.dlock.internal.testing.FakeTransport;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The waiting protocol against a scripted transport: the orders of replies and hand-off messages
 * that a real server produces only by chance. Modes of acquire.lua: 0 try, 1 queue, 2 leave.
 */
final class HandoffProtocolTest {
    private static final long BUSY_30S = -2 - 30_000; // acquire.lua's reply: busy, holder PTTL 30 s

    private final FakeTransport redis = new FakeTransport();
    private LockClient client;

    @BeforeEach
    void connect() {
        client = LockClient.builder()
                .redisUri("redis://127.0.0.1:1")
                .transport(config -> redis)
                .build();
    }

    @AfterEach
    void close() {
        redis.answerEverything();
        client.close();
    }

    /** This client's wake-up channel for lock "h". */
    private String channel() {
        return "dlock:{h}:wake:" + client.clientId();
    }

    private static String mode(FakeTransport.Call call) {
        assertThat(call.script()).isSameAs(Scripts.ACQUIRE);
        return call.args()[2];
    }

    /** Runs an acquire up to its queueing try and returns that try, still unanswered. */
    private FakeTransport.Call queueingTry(CompletableFuture<Lease> acquire) throws InterruptedException {
        FakeTransport.Call first = redis.next();
        assertThat(mode(first)).isEqualTo("0");
        first.reply().complete(BUSY_30S);
        FakeTransport.Call queue = redis.next();
        assertThat(mode(queue)).isEqualTo("1");
        assertThat(acquire).isNotDone();
        return queue;
    }

    @Test
    void handOffArrivingBeforeTheQueueingTrysReply_completesWithTheGrantedToken() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("h").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call queue = queueingTry(acquire);
        String owner = queue.args()[0];
        redis.publish(channel(), "g 42 " + queue.args()[4] + " " + owner); // the message overtakes the reply
        assertThat(acquire).isNotDone();
        queue.reply().complete(BUSY_30S); // the try ran before the grant
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        assertThat(lease.fencingToken()).isEqualTo(42);
        assertThat(lease.isValid()).isTrue();
        assertThat(redis.poll(100)).as("no further round trip").isNull();
    }

    @Test
    void handOffWhileAsleep_completesAtOnce_withNoRoundTrip() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("h").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call queue = queueingTry(acquire);
        queue.reply().complete(BUSY_30S);
        assertThat(redis.poll(100)).isNull(); // sleeping
        redis.publish(channel(), "g 43 " + queue.args()[4] + " " + queue.args()[0]);
        Lease lease = acquire.get(5, TimeUnit.SECONDS);
        assertThat(lease.fencingToken()).isEqualTo(43);
        // its validity counts from the queueing try's send, never from the message
        assertThat(lease.remaining()).isLessThanOrEqualTo(Duration.ofMillis(30_000 - 300 - 2));
        assertThat(redis.poll(100)).isNull();
    }

    @Test
    void handOffToSomeoneElse_isIgnored() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("h").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call queue = queueingTry(acquire);
        queue.reply().complete(BUSY_30S);
        String owner = queue.args()[0];
        String wait = queue.args()[4];
        redis.publish(channel(), "g 44 " + wait + " other-client:lease-9"); // another owner
        redis.publish(channel(), "g 45 x" + wait + " " + owner); // another wait of this owner
        redis.publish(channel().replace("{h}", "{other}"), "g 46 " + wait + " " + owner); // another lock
        redis.publish(channel(), "g 47 " + owner); // no wait id: not taken on the message's word
        assertThat(redis.poll(200)).isNull();
        assertThat(acquire).isNotDone();
        acquire.cancel(true);
        assertThat(mode(redis.next()))
                .as("the cancelled waiter leaves the queue")
                .isEqualTo("2");
    }

    @Test
    void deadline_sendsALastTryThatLeavesTheQueue_andAnswersEmpty() throws Exception {
        CompletableFuture<Optional<Lease>> attempt =
                CompletableFuture.supplyAsync(() -> client.lock("h").tryAcquire(Duration.ofMillis(300)));
        FakeTransport.Call first = redis.next();
        first.reply().complete(BUSY_30S);
        FakeTransport.Call queue = redis.next();
        assertThat(mode(queue)).isEqualTo("1");
        queue.reply().complete(BUSY_30S);
        FakeTransport.Call leave = redis.next(); // at the deadline, not at the holder's 30 s
        assertThat(mode(leave)).isEqualTo("2");
        assertThat(leave.args()[0]).isEqualTo(queue.args()[0]);
        leave.reply().complete(BUSY_30S);
        assertThat(attempt.get(5, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void lastTryFindingTheLockHandedOver_takesIt() throws Exception {
        CompletableFuture<Optional<Lease>> attempt =
                CompletableFuture.supplyAsync(() -> client.lock("h").tryAcquire(Duration.ofMillis(200)));
        redis.next().reply().complete(BUSY_30S);
        redis.next().reply().complete(BUSY_30S);
        FakeTransport.Call leave = redis.next();
        assertThat(mode(leave)).isEqualTo("2");
        leave.reply().complete(45L); // granted just before the leave ran
        assertThat(attempt.get(5, TimeUnit.SECONDS))
                .hasValueSatisfying(l -> assertThat(l.fencingToken()).isEqualTo(45));
    }

    @Test
    void queueEntry_isRefreshedLongBeforeItExpires() throws Exception {
        CompletableFuture<Lease> acquire = client.lock("h").acquireAsync(Duration.ofSeconds(30));
        FakeTransport.Call queue = queueingTry(acquire);
        long entryMillis = Long.parseLong(queue.args()[3]);
        queue.reply().complete(BUSY_30S); // the holder has 30 s left: only the refresh wakes it
        long start = System.nanoTime();
        FakeTransport.Call refresh = redis.next();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(mode(refresh)).isEqualTo("1");
        assertThat(tookMillis).isLessThan(entryMillis / 2);
        acquire.cancel(true);
    }
}
