package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.Script;
import dev.dlock.spi.Transport;
import dev.dlock.spi.TransportConfig;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A script answered {@code NOSCRIPT} (the server flushed its script cache) is resent with its source,
 * and must still run before every command issued after it: dlock undoes a timed-out acquire with an
 * owner-checked release sent right behind it, and a lease's release must run before the next acquire.
 */
public abstract class ScriptOrderContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ScriptOrderContract() {}

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final String PUSH = "return redis.call('RPUSH', KEYS[1], ARGV[1])";
    private static final Script FIRST = Script.of("push-first", PUSH + " -- first", Script.Reply.INTEGER);
    private static final Script SECOND = Script.of("push-second", PUSH + " -- second", Script.Reply.INTEGER);

    /** A bare connection of the transport under test, for its script calls without a lock client. */
    private Transport openTransport(RedisServer server) {
        return transport()
                .connect(TransportConfig.of(server.uri(), Timing.scaled(Duration.ofSeconds(5)), "script-order-test"));
    }

    private static Object await(CompletableFuture<Object> reply) throws Exception {
        return reply.get(Timing.scaled(Duration.ofSeconds(10)).toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The values whose calls succeeded, in issue order: what Redis must have run, in that order. A
     * call may instead fail as a connection error (outcome unknown), but then it must not have run.
     */
    private static List<String> succeeded(List<CompletableFuture<Object>> calls, List<String> values) throws Exception {
        List<String> ran = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            try {
                await(calls.get(i));
                ran.add(values.get(i));
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(LockConnectionException.class);
            }
        }
        return ran;
    }

    @Test
    void evalsha_answeredNoscript_neverRunsAfterTheSourceSentBehindIt() throws Exception {
        RedisServer server = redis.server();
        try (Transport transport = openTransport(server)) {
            for (int round = 0; round < 20; round++) {
                String key = "order:" + round;
                String[] keys = {key};
                await(transport.eval(FIRST, keys, new String[] {"warm"})); // known by SHA from now on
                server.command("DEL", key);
                server.command("SCRIPT", "FLUSH");
                // New to this connection, so it goes with its source and runs at once, before a resend of
                // the one in front of it: that one must then fail rather than run second.
                Script fresh = Script.of("push-fresh", PUSH + " -- fresh " + round, Script.Reply.INTEGER);
                List<CompletableFuture<Object>> calls = List.of(
                        transport.eval(FIRST, keys, new String[] {"1"}),
                        transport.eval(fresh, keys, new String[] {"2"}),
                        transport.eval(FIRST, keys, new String[] {"3"}));
                List<String> ran = succeeded(calls, List.of("1", "2", "3"));
                assertThat(server.command("LRANGE", key, "0", "-1"))
                        .as("round %d: the order Redis ran them in", round)
                        .isEqualTo(ran);
                assertThat(ran)
                        .as("round %d: the source and the resend behind it ran", round)
                        .containsSubsequence("2", "3");
            }
        }
    }

    @Test
    void scriptFlush_underAPipelinedBurst_keepsIssueOrder() throws Exception {
        RedisServer server = redis.server();
        try (Transport transport = openTransport(server)) {
            String[] keys = {"burst"};
            for (int round = 0; round < 10; round++) {
                await(transport.eval(FIRST, keys, new String[] {"warm"}));
                await(transport.eval(SECOND, keys, new String[] {"warm"}));
                server.command("DEL", "burst");
                server.command("SCRIPT", "FLUSH");
                List<CompletableFuture<Object>> replies = new ArrayList<>();
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    replies.add(transport.eval(i % 3 == 0 ? SECOND : FIRST, keys, new String[] {Integer.toString(i)}));
                    expected.add(Integer.toString(i));
                }
                for (CompletableFuture<Object> reply : replies) {
                    await(reply);
                }
                assertThat(server.command("LRANGE", "burst", "0", "-1"))
                        .as("round %d: the order Redis ran them in", round)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void timedOutAcquire_acrossScriptFlush_isUndoneSoTheLockIsFree() throws Exception {
        RedisServer server = redis.server();
        Duration timeout = Timing.scaled(Duration.ofMillis(300));
        try (LockClient client = builder(server.uri())
                        .commandTimeout(timeout)
                        .leaseTime(Duration.ofSeconds(60)) // a lock left held would stay for the test's life
                        .build();
                LockClient other = builder(server.uri()).build()) {
            DistributedLock lock = client.lock("flushed");
            for (int round = 0; round < 3; round++) {
                lock.acquire().release(); // both scripts known by SHA on the connection
                server.command("SCRIPT", "FLUSH");
                server.pause();
                try {
                    CompletableFuture<Lease> attempt = lock.acquireAsync(Duration.ZERO);
                    assertThatThrownBy(() -> attempt.get(timeout.toMillis() * 20, TimeUnit.MILLISECONDS))
                            .isInstanceOf(ExecutionException.class)
                            .hasCauseInstanceOf(LockConnectionException.class);
                } finally {
                    server.resume();
                }
                // The acquire ran (resent with its source) or never did; the undo sent behind it ran after it.
                assertThat(other.lock("flushed").tryAcquire(Timing.scaled(Duration.ofSeconds(5))))
                        .as("round %d: the lock is free", round)
                        .hasValueSatisfying(Lease::release);
            }
        }
    }
}
