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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SimTransport: replies shaped as dlock-resp shapes them, NOSCRIPT handled, pub/sub, lost connections, and every action
 * on the seam.
 */
@Timeout(60)
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
        // first use on the connection: EVAL with the source, one round trip
        assertThat(network.actions).containsExactly("server COMMANDS", "client COMMANDS");
        assertThat(value(transport.eval(array, new String[0], new String[0])))
                .isEqualTo(List.of(1L, "x", List.of(2L), "OK"));
        network.actions.clear();
        assertThat(value(transport.eval(integer, new String[0], new String[0]))).isEqualTo(42L);
        assertThat(network.actions).hasSize(2); // loaded now: EVALSHA, one round trip
        redis.scriptFlush();
        network.actions.clear();
        assertThat(value(transport.eval(integer, new String[0], new String[0]))).isEqualTo(42L);
        // EVALSHA met NOSCRIPT, then EVAL: two round trips
        assertThat(network.actions)
                .containsExactly("server COMMANDS", "client COMMANDS", "server COMMANDS", "client COMMANDS");
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

    private static final long MS = 1_000_000;

    /** A transport over a network of 1 ms each way, with the 2 s command timeout. */
    private static final class Wired {
        final EventLoop loop = new EventLoop();
        final SimRedis server = new SimRedis(() -> 1_000_000L + loop.now() / MS);
        final LoopNetwork network = new LoopNetwork(
                loop,
                new java.util.SplittableRandom(1),
                LoopNetwork.Delays.between(MS, MS),
                LoopNetwork.Delays.between(MS, MS));
        final SimTransport transport;
        final List<String> got = new ArrayList<>();

        Wired() {
            this(SimTransport.Reconnects.RESP);
        }

        Wired(SimTransport.Reconnects reconnects) {
            transport = new SimTransport(server, network, false, loop, Duration.ofSeconds(2), reconnects);
            transport.onMessage((channel, message) -> got.add(channel + "=" + message));
        }

        CompletableFuture<Object> eval(String source, String... keys) {
            return transport.eval(Script.of(source, source, Script.Reply.INTEGER), keys, new String[0]);
        }

        void runFor(long millis) {
            loop.runFor(millis * MS);
        }
    }

    private static final String INCR = "return redis.call('INCR', KEYS[1])";
    private static final String GET = "return redis.call('GET', KEYS[1])";

    @Test
    void aDroppedConnection_failsTheCommandsInFlightOnItAtOnce_thoughTheyMayHaveRun() {
        Wired w = new Wired();
        CompletableFuture<Object> first = w.eval(INCR, "k");
        w.runFor(10); // NOSCRIPT, then EVAL: known from now on
        assertThat(first).isCompletedWithValue(1L);
        CompletableFuture<Object> inFlight = w.eval(INCR, "k");
        w.loop.runFor(MS + MS / 2); // it ran at 1 ms; its reply is due at 2 ms
        w.network.drop(SimNetwork.Link.COMMANDS, 0);
        assertThat(inFlight).as("failed at once, not after the timeout").isCompletedExceptionally();
        assertThatThrownBy(inFlight::join)
                .hasCauseInstanceOf(dev.dlock.LockConnectionException.class)
                .hasMessageContaining("lost the connection to Redis");
        assertThat(w.server.call("GET", "k")).as("it ran all the same").isEqualTo("2");
        w.runFor(10);
        assertThat(w.eval(INCR, "k")).as("reconnected").isNotDone();
        w.runFor(10);
        assertThat(w.server.call("GET", "k")).isEqualTo("3");
        assertThat(w.network.drops()).isEqualTo(1);
    }

    @Test
    void asLettuce_aCommandInFlightOnADroppedConnection_goesOutAgain_andMayRunTwice() {
        Wired w = new Wired(SimTransport.Reconnects.LETTUCE);
        CompletableFuture<Object> first = w.eval(INCR, "k");
        w.runFor(10);
        assertThat(first).isCompletedWithValue(1L);
        CompletableFuture<Object> inFlight = w.eval(INCR, "k");
        w.loop.runFor(MS + MS / 2); // it ran at 1 ms; its reply is due at 2 ms
        w.network.drop(SimNetwork.Link.COMMANDS, 2_500 * MS);
        CompletableFuture<Object> issuedWhileDown = w.eval(GET, "k");
        assertThat(inFlight).as("not failed: waits for the reconnect").isNotDone();
        w.runFor(1_900);
        assertThat(inFlight).as("no grace: waits up to its timeout").isNotDone();
        w.runFor(200);
        assertThatThrownBy(inFlight::join)
                .as("timed out before the server could be reached again")
                .hasCauseInstanceOf(dev.dlock.LockConnectionException.class);
        w.runFor(3_000);
        assertThat(issuedWhileDown).isCompletedExceptionally();
        assertThat(w.server.call("GET", "k"))
                .as("a timed-out command is not sent again")
                .isEqualTo("2");

        CompletableFuture<Object> again = w.eval(INCR, "k");
        w.loop.runFor(MS + MS / 2);
        w.network.drop(SimNetwork.Link.COMMANDS, 100 * MS);
        CompletableFuture<Object> after = w.eval(GET, "k");
        w.runFor(1_000);
        assertThat(again).as("sent again on the new connection: it ran twice").isCompletedWithValue(4L);
        assertThat(after).as("after the resend, as issued").isCompletedWithValue("4");
    }

    /** Logs ARGV[1] as the next entry of the hash KEYS[1] (numbered by the counter KEYS[2]): the order of runs. */
    private static final Script PUSH = Script.of(
            "push",
            "local n = redis.call('INCR', KEYS[2]) redis.call('HSET', KEYS[1], n, ARGV[1]) return n",
            Script.Reply.INTEGER);

    /** The values pushed, in the order the server ran their scripts. */
    private static List<String> log(Wired w) {
        List<String> values = new ArrayList<>();
        List<?> fields = (List<?>) w.server.call("HGETALL", "log");
        for (int i = 1; i < fields.size(); i += 2) {
            values.add((String) fields.get(i));
        }
        return values;
    }

    private static CompletableFuture<Object> push(Wired w, String value) {
        return w.transport.eval(PUSH, new String[] {"log", "log:n"}, new String[] {value});
    }

    /** The values whose pushes succeeded, in issue order; a failed push must have failed as outcome unknown. */
    private static List<String> succeeded(List<CompletableFuture<Object>> calls, String... values) {
        List<String> ran = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            CompletableFuture<Object> call = calls.get(i);
            assertThat(call).as("call %d", i).isDone();
            if (call.isCompletedExceptionally()) {
                assertThatThrownBy(call::join).hasCauseInstanceOf(dev.dlock.LockConnectionException.class);
            } else {
                ran.add(values[i]);
            }
        }
        return ran;
    }

    /**
     * ScriptOrderContract's rule, as dlock-resp's CommandChannel and dlock-lettuce's ScriptQueue keep it: an EVALSHA
     * answered NOSCRIPT did not run, but a call sent behind it by SHA ran (another client loaded the script in
     * between); resending the first would run it after the second, so it fails instead, outcome unknown.
     */
    @ParameterizedTest
    @EnumSource(SimTransport.Reconnects.class)
    void aCallAnsweredNoscript_failsOnceACallSentBehindItRan(SimTransport.Reconnects reconnects) {
        Wired w = new Wired(reconnects);
        push(w, "warm");
        w.runFor(10); // known by SHA from now on
        w.server.call("DEL", "log", "log:n");
        w.server.scriptFlush();
        CompletableFuture<Object> first = push(w, "1"); // at the server at 1 ms: NOSCRIPT, told at 2 ms
        w.loop.runFor(MS + MS / 5);
        w.server.scriptLoad(PUSH.source()); // another client loads it again
        CompletableFuture<Object> second = push(w, "2"); // at the server at 2.2 ms, by SHA: runs
        CompletableFuture<Object> third = push(w, "3"); // likewise
        w.runFor(10);
        List<String> ran = succeeded(List.of(first, second, third), "1", "2", "3");
        assertThat(log(w))
                .as("the order the server ran them in is the order issued")
                .isEqualTo(ran);
        assertThat(ran).containsExactly("2", "3");
        assertThatThrownBy(first::join).hasMessageContaining("NOSCRIPT");
    }

    /**
     * A call answered NOSCRIPT is resent with its source once every call sent behind it has answered without running
     * (NOSCRIPT too), and the calls issued meanwhile wait behind the resends: the server runs them all in issue order.
     */
    @ParameterizedTest
    @EnumSource(SimTransport.Reconnects.class)
    void callsAnsweredNoscript_areResentInIssueOrder_aheadOfNewerOnes(SimTransport.Reconnects reconnects) {
        Wired w = new Wired(reconnects);
        push(w, "warm");
        w.runFor(10);
        w.server.call("DEL", "log", "log:n");
        w.server.scriptFlush();
        List<CompletableFuture<Object>> calls = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            calls.add(push(w, Integer.toString(i)));
            values.add(Integer.toString(i));
            w.loop.runFor(MS / 4); // the first NOSCRIPT comes back while later ones are still on their way
        }
        w.runFor(20);
        assertThat(succeeded(calls, values.toArray(String[]::new))).isEqualTo(values);
        assertThat(log(w)).isEqualTo(values);
    }

    @Test
    void asResp_aScriptGoesWithItsSourceOnItsFirstUseOnEachConnection_soItRunsThoughItsReplyIsLost() {
        Wired w = new Wired();
        w.eval(INCR, "k");
        w.runFor(10);
        w.server.restart(true); // closes the connection; the next one knows no script
        w.runFor(10);
        w.network.lose(1, 0);
        CompletableFuture<Object> lost = w.eval(INCR, "k");
        w.runFor(2_100);
        assertThat(lost).isCompletedExceptionally();
        assertThat(w.server.call("GET", "k"))
                .as("sent as EVAL, not as an EVALSHA whose NOSCRIPT went unheard")
                .isEqualTo("2");
    }

    @Test
    void asLettuce_aScriptKnownBeforeAReconnect_goesBySha_andMeetsNoscriptAfterARestart() {
        Wired w = new Wired(SimTransport.Reconnects.LETTUCE);
        w.eval(INCR, "k");
        w.runFor(10);
        w.server.restart(true); // Lettuce reconnects on its own; the transport's script queue is not told
        w.runFor(10);
        w.network.lose(1, 0);
        CompletableFuture<Object> lost = w.eval(INCR, "k");
        w.runFor(2_100);
        assertThat(lost).isCompletedExceptionally();
        assertThat(w.server.call("GET", "k"))
                .as("EVALSHA met NOSCRIPT, whose reply was lost: never resent")
                .isEqualTo("1");
        w.network.lose(0, 0);
        assertThat(w.eval(INCR, "k")).isNotDone();
        w.runFor(10);
        assertThat(w.server.call("GET", "k")).as("NOSCRIPT, then the source").isEqualTo("2");
    }

    @Test
    void commandsIssuedWhileDown_waitAndGoOutInTheirOrder_onTheNextConnection() {
        Wired w = new Wired();
        w.runFor(1);
        w.network.drop(SimNetwork.Link.COMMANDS, 100 * MS);
        CompletableFuture<Object> incr = w.eval(INCR, "k");
        CompletableFuture<Object> get = w.eval(GET, "k");
        w.runFor(90);
        assertThat(incr).isNotDone();
        assertThat(get).isNotDone();
        assertThat(w.server.call("EXISTS", "k")).as("not sent while down").isEqualTo(0L);
        w.runFor(300); // refused until 100 ms; the back-off's next attempt connects
        assertThat(incr).isCompletedWithValue(1L);
        assertThat(get).as("after the INCR, as issued").isCompletedWithValue("1");
    }

    @Test
    void commandsWaitingForAConnection_failUnsent_whenReconnectingKeepsFailingPastASecond() {
        Wired w = new Wired();
        w.network.drop(SimNetwork.Link.COMMANDS, 3_000 * MS);
        CompletableFuture<Object> waiting = w.eval(INCR, "k");
        w.runFor(999);
        assertThat(waiting).isNotDone();
        w.runFor(2);
        assertThatThrownBy(waiting::join)
                .hasCauseInstanceOf(dev.dlock.LockConnectionException.class)
                .hasMessageContaining("not connected to Redis for 1000 ms")
                .hasMessageContaining("not sent");
        w.runFor(4_000);
        assertThat(w.server.call("EXISTS", "k")).as("never sent").isEqualTo(0L);
        CompletableFuture<Object> after = w.eval(INCR, "k");
        w.runFor(10);
        assertThat(after).as("connected again").isCompletedWithValue(1L);
    }

    @Test
    void aDroppedPubSubConnection_isSubscribedAgain_andLosesWhatWasPublishedWhileDown() {
        Wired w = new Wired();
        CompletableFuture<Void> subscribed = w.transport.subscribe("ch");
        w.runFor(5);
        assertThat(subscribed).isCompleted();
        assertThat(w.server.call("PUBLISH", "ch", "one")).isEqualTo(1L);
        w.runFor(5);
        assertThat(w.got).containsExactly("ch=one");

        assertThat(w.server.call("PUBLISH", "ch", "in-flight")).isEqualTo(1L);
        w.network.drop(SimNetwork.Link.PUBSUB, 100 * MS);
        assertThat(w.server.call("PUBLISH", "ch", "while-down"))
                .as("the server dropped the connection's subscriptions")
                .isEqualTo(0L);
        CompletableFuture<Void> other = w.transport.subscribe("other");
        CompletableFuture<Void> unsubscribed = w.transport.unsubscribe("ch");
        CompletableFuture<Void> again = w.transport.subscribe("ch");
        w.runFor(50);
        assertThat(other).as("waits for the connection").isNotDone();
        assertThat(unsubscribed).isNotDone();
        w.runFor(300);
        assertThat(other).as("confirmed by the restoring SUBSCRIBE").isCompleted();
        assertThat(unsubscribed).isCompleted();
        assertThat(again).isCompleted();
        assertThat(w.server.call("PUBLISH", "other", "two")).isEqualTo(1L);
        assertThat(w.server.call("PUBLISH", "ch", "three")).isEqualTo(1L);
        w.runFor(5);
        assertThat(w.got)
                .as("what was in flight or published while down is lost")
                .containsExactly("ch=one", "other=two", "ch=three");
    }

    @Test
    void aRestart_closesBothConnections_failingWhatWasInFlight_andTheSubscriptionsAreRestored() {
        Wired w = new Wired();
        w.transport.subscribe("ch");
        CompletableFuture<Object> first = w.eval(INCR, "k");
        w.runFor(10);
        assertThat(first).isCompletedWithValue(1L);
        CompletableFuture<Object> inFlight = w.eval(INCR, "k");
        w.loop.runFor(MS / 2); // not yet at the server
        w.server.restart(true);
        assertThatThrownBy(inFlight::join)
                .hasCauseInstanceOf(dev.dlock.LockConnectionException.class)
                .hasMessageContaining("the server closed the connection");
        w.runFor(10);
        assertThat(w.server.call("GET", "k"))
                .as("it never reached the restarted server")
                .isEqualTo("1");
        assertThat(w.server.call("PUBLISH", "ch", "after"))
                .as("subscribed again")
                .isEqualTo(1L);
        w.runFor(5);
        assertThat(w.got).containsExactly("ch=after");
    }

    @Test
    void aWaiterWhoseGrantWasLostWithItsPubSubConnection_stillTakesTheLock_byItsOwnTimer() throws Exception {
        EventLoop loop = new EventLoop();
        SimRedis server = new SimRedis(() -> 1_760_000_000_000L + loop.now() / MS);
        java.util.SplittableRandom seed = new java.util.SplittableRandom(7);
        LoopNetwork.Delays delays = LoopNetwork.Delays.between(MS, MS);
        LoopNetwork waiterNetwork = new LoopNetwork(loop, seed.split(), delays, delays);
        LockClient a = loopClient(loop, server, new LoopNetwork(loop, seed.split(), delays, delays), "client-a");
        LockClient b = loopClient(loop, server, waiterNetwork, "client-b");
        CompletableFuture<Lease> held = a.lock("job").acquireAsync(Duration.ZERO);
        loop.runUntil(held::isDone, 1_000 * MS);
        CompletableFuture<Lease> waiting = b.lock("job").acquireAsync(Duration.ofSeconds(30));
        loop.runFor(100 * MS);
        assertThat(waiting).as("queued, subscribed").isNotDone();
        waiterNetwork.drop(SimNetwork.Link.PUBSUB, 500 * MS);
        // the release hands the lock to b's queue entry and publishes the grant while b's connection is gone
        CompletableFuture<Void> released = held.join().releaseAsync();
        loop.runUntil(waiting::isDone, 10_000 * MS);
        assertThat(waiting)
                .as("no reconnect callback in the SPI: the waiter's own timer re-checks, within its wait of 30 s")
                .isCompleted();
        assertThat(waiting.join().fencingToken()).isGreaterThan(held.join().fencingToken());
        assertThat(released).isCompleted();
        CompletableFuture<Void> done =
                waiting.join().releaseAsync().thenCompose(v -> a.closeAsync()).thenCompose(v -> b.closeAsync());
        loop.runUntil(done::isDone, 10_000 * MS);
        assertThat(done).isCompleted();
    }

    private static LockClient loopClient(EventLoop loop, SimRedis server, LoopNetwork network, String id) {
        SimTransport transport = new SimTransport(server, network, false, loop, Duration.ofSeconds(2));
        return LockClient.builder()
                .redisUri("redis://sim")
                .transport(config -> transport)
                .leaseTime(Duration.ofSeconds(3))
                .commandTimeout(Duration.ofSeconds(2))
                .runtime(new SimClientRuntime(loop, 0, 0, id))
                .build();
    }
}
