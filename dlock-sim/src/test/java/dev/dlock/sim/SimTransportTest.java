package dev.dlock.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Script;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** SimTransport: replies shaped as dlock-resp shapes them, NOSCRIPT handled, pub/sub, and every action on the seam. */
final class SimTransportTest {
    private final long[] now = {1_000_000L};
    private final SimRedis redis = new SimRedis(() -> now[0]);

    /** A network that runs actions at once and records each, to show that every one passes through it. */
    private static final class RecordingNetwork implements SimNetwork {
        final List<String> actions = new ArrayList<>();
        private final SimNetwork direct = SimNetwork.direct();

        @Override
        public void toServer(Link link, Runnable execute) {
            actions.add("server " + link);
            direct.toServer(link, execute);
        }

        @Override
        public void toClient(Link link, Runnable deliver) {
            actions.add("client " + link);
            direct.toClient(link, deliver);
        }
    }

    private static Object value(CompletableFuture<?> future) throws Exception {
        return future.get(5, TimeUnit.SECONDS);
    }

    @Test
    void eval_shapesReplies_andRetriesWithTheSourceAfterNoscript() throws Exception {
        RecordingNetwork network = new RecordingNetwork();
        SimTransport transport = new SimTransport(redis, network, false);
        Script integer = Script.of("n", "return 41 + 1", Script.Reply.INTEGER);
        Script array = Script.of("a", "return {1, 'x', {2}, redis.status_reply('OK')}", Script.Reply.ARRAY);
        assertThat(value(transport.eval(integer, new String[0], new String[0]))).isEqualTo(42L);
        // EVALSHA met NOSCRIPT (never loaded), then EVAL: two round trips
        assertThat(network.actions)
                .containsExactly("server COMMANDS", "client COMMANDS", "server COMMANDS", "client COMMANDS");
        assertThat(value(transport.eval(array, new String[0], new String[0])))
                .isEqualTo(List.of(1L, "x", List.of(2L), "OK"));
        network.actions.clear();
        assertThat(value(transport.eval(integer, new String[0], new String[0]))).isEqualTo(42L);
        assertThat(network.actions).hasSize(2); // loaded now: one round trip
        redis.restart(true);
        assertThat(value(transport.eval(integer, new String[0], new String[0]))).isEqualTo(42L);
    }

    @Test
    void errorReply_failsTheFutureWithRedisWords() {
        redis.call("HSET", "h", "f", "v");
        SimTransport transport = new SimTransport(redis);
        Script get = Script.of("g", "return redis.call('GET', KEYS[1])", Script.Reply.INTEGER);
        assertThatThrownBy(() -> value(transport.eval(get, new String[] {"h"}, new String[0])))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(RedisReplyException.class)
                .hasMessageStartingWith("WRONGTYPE Operation against a key holding the wrong kind of value script: ");
    }

    @Test
    void messages_reachTheListenerThroughTheNetwork_andSurviveARestart() throws Exception {
        RecordingNetwork network = new RecordingNetwork();
        SimTransport transport = new SimTransport(redis, network, true);
        List<String> got = new ArrayList<>();
        transport.onMessage((channel, message) -> got.add(channel + "=" + message));
        value(transport.subscribe("ch"));
        Script publish = Script.of("p", "return redis.call('SPUBLISH', 'ch', ARGV[1])", Script.Reply.INTEGER);
        assertThat(value(transport.eval(publish, new String[0], new String[] {"one"})))
                .isEqualTo(1L);
        assertThat(got).containsExactly("ch=one");
        assertThat(network.actions).contains("client PUBSUB");
        redis.restart(false); // drops the pub/sub connection; the transport subscribes again
        assertThat(value(transport.eval(publish, new String[0], new String[] {"two"})))
                .isEqualTo(1L);
        assertThat(got).containsExactly("ch=one", "ch=two");
        value(transport.unsubscribe("ch"));
        assertThat(value(transport.eval(publish, new String[0], new String[] {"three"})))
                .isEqualTo(0L);
        transport.close();
        assertThatThrownBy(() -> value(transport.eval(publish, new String[0], new String[] {"x"})))
                .hasCauseInstanceOf(dev.dlock.LockConnectionException.class);
    }

    @Test
    @Timeout(60)
    void theRealClient_locksOverTheSimulatedRedis() throws Exception {
        SimRedis shared = new SimRedis(System::currentTimeMillis);
        try (LockClient a = client(shared);
                LockClient b = client(shared)) {
            DistributedLock lockA = a.lock("sim-smoke");
            DistributedLock lockB = b.lock("sim-smoke");
            Lease held = lockA.acquire();
            assertThat(held.fencingToken()).isPositive();
            assertThat(lockB.tryAcquire(Duration.ZERO)).isEmpty();
            CompletableFuture<Lease> waiting = CompletableFuture.supplyAsync(() -> lockB.acquire());
            Thread.sleep(200); // not for correctness: gives B's wait the time to queue, so the release hands over
            held.close();
            Lease handed = waiting.get(30, TimeUnit.SECONDS);
            assertThat(handed.fencingToken()).isGreaterThan(held.fencingToken());
            handed.close();
            Optional<Lease> again = lockA.tryAcquire(Duration.ofSeconds(5));
            assertThat(again).isPresent();
            again.get().close();
        }
    }

    private static LockClient client(SimRedis server) {
        return LockClient.builder()
                .redisUri("redis://sim:6379")
                .transport(config -> new SimTransport(server))
                .build();
    }

    @Test
    void aLostReply_failsTheCommandAfterTheTimeout_althoughItRan() {
        EventLoop loop = new EventLoop();
        SimRedis server = new SimRedis(() -> 1_000_000L + loop.now() / 1_000_000);
        LoopNetwork network = new LoopNetwork(
                loop,
                new java.util.SplittableRandom(1),
                LoopNetwork.Delays.between(1_000_000, 1_000_000),
                LoopNetwork.Delays.between(1_000_000, 1_000_000));
        SimTransport transport = new SimTransport(server, network, false, loop, Duration.ofSeconds(2));
        Script set = Script.of("s", "return redis.call('INCR', KEYS[1])", Script.Reply.INTEGER);
        CompletableFuture<Object> answered = transport.eval(set, new String[] {"k"}, new String[0]);
        loop.runUntil(answered::isDone, Duration.ofSeconds(1).toNanos());
        assertThat(answered).isCompletedWithValue(1L);

        network.lose(1, 0);
        CompletableFuture<Object> lost = transport.eval(set, new String[] {"k"}, new String[0]);
        loop.runFor(Duration.ofMillis(1_999).toNanos());
        assertThat(lost).as("no answer yet, and no timeout before 2 s").isNotDone();
        assertThat(server.call("GET", "k")).as("the command ran").isEqualTo("2");
        loop.runFor(Duration.ofMillis(2).toNanos());
        assertThatThrownBy(lost::join)
                .hasCauseInstanceOf(dev.dlock.LockConnectionException.class)
                .hasMessageContaining("did not answer in time (PT2S)");
        assertThat(network.lostReplies()).isEqualTo(1);
    }
}
