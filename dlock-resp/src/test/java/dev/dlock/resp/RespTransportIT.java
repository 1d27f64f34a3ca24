package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockConnectionException;
import dev.dlock.contract.Workers;
import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.Transport;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

final class RespTransportIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private Transport transport;

    @BeforeEach
    void connect() {
        transport = new RespTransportFactory().connect(Scripts.config(redis.server()));
    }

    @AfterEach
    void close() {
        transport.close();
    }

    private Object eval(dev.dlock.spi.Script script, String[] keys, String... args) throws Exception {
        return transport.eval(script, keys, args).get(5, TimeUnit.SECONDS);
    }

    @Test
    void eval_decodesIntegerArrayAndNil() throws Exception {
        assertThat(eval(Scripts.ECHO_NUMBER, new String[0], "1234567890123")).isEqualTo(1234567890123L);
        assertThat(eval(Scripts.ECHO_NUMBER, new String[0], "-7")).isEqualTo(-7L);
        assertThat(eval(Scripts.SHAPES, new String[] {"k"}, "ünïcode"))
                .isEqualTo(Arrays.asList(1L, "two", Arrays.asList(3L, "k"), null, "ünïcode"));
        assertThat(eval(Scripts.NIL, new String[0])).isNull();
    }

    @Test
    void firstUse_sendsEval_thenEvalsha() throws Exception {
        redis.server().command("CONFIG", "RESETSTAT");
        for (int i = 0; i < 5; i++) {
            eval(Scripts.ECHO_NUMBER, new String[0], Integer.toString(i));
        }
        assertThat(Scripts.calls(redis.server(), "eval")).isEqualTo(1);
        assertThat(Scripts.calls(redis.server(), "evalsha")).isEqualTo(4);
    }

    @Test
    void scriptFlush_noscriptIsAnsweredBySendingTheSourceAgain() throws Exception {
        eval(Scripts.ECHO_NUMBER, new String[0], "1");
        redis.server().command("SCRIPT", "FLUSH");
        redis.server().command("CONFIG", "RESETSTAT");
        assertThat(eval(Scripts.ECHO_NUMBER, new String[0], "2")).isEqualTo(2L);
        assertThat(eval(Scripts.ECHO_NUMBER, new String[0], "3")).isEqualTo(3L);
        assertThat(Scripts.calls(redis.server(), "eval")).isEqualTo(1);
        assertThat(Scripts.calls(redis.server(), "evalsha")).isEqualTo(2); // one NOSCRIPT, one hit
    }

    @Test
    void errorReply_failsWithRedisReplyException_carryingTheServerText() {
        redis.server().command("SET", "typed", "v");
        assertThatThrownBy(() -> eval(Scripts.HSET, new String[] {"typed"}, "x"))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(RedisReplyException.class)
                .hasMessageContaining("WRONGTYPE")
                .satisfies(e ->
                        assertThat(e.getMessage()).doesNotStartWith("-")); // 7.x starts with WRONGTYPE, 6.2 with ERR
        assertThatThrownBy(() -> eval(Scripts.INCR, new String[] {"typed"}))
                .cause()
                .isInstanceOf(RedisReplyException.class)
                .hasMessageContaining("not an integer");
    }

    @Test
    void sixteenThreads_manyCommands_everyReplyReachesItsCaller() throws Exception {
        int threads = 16;
        int each = 3000;
        AtomicInteger wrong = new AtomicInteger();
        Workers.run("echo", threads, Duration.ofSeconds(60), id -> {
            List<CompletableFuture<Object>> inFlight = new ArrayList<>();
            for (int i = 0; i < each; i++) {
                long expected = id * 1_000_000L + i;
                CompletableFuture<Object> f =
                        transport.eval(Scripts.ECHO_NUMBER, new String[0], new String[] {Long.toString(expected)});
                if (i % 3 == 0) { // a mix of synchronous and pipelined callers
                    if (!Long.valueOf(expected).equals(f.join())) {
                        wrong.incrementAndGet();
                    }
                } else {
                    inFlight.add(f.thenApply(r -> Long.valueOf(expected).equals(r) ? r : null));
                }
            }
            for (CompletableFuture<Object> f : inFlight) {
                if (f.join() == null) {
                    wrong.incrementAndGet();
                }
            }
        });
        assertThat(wrong).hasValue(0);
    }

    @Test
    void subscribe_completesOnlyOnceConfirmed_soAPublishRightAfterIsReceived() throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        transport.onMessage((channel, message) -> received.add(channel + "=" + message));
        for (int i = 0; i < 20; i++) {
            transport.subscribe("ch-" + i).get(5, TimeUnit.SECONDS);
            assertThat(redis.server().command("PUBLISH", "ch-" + i, "m" + i)).isEqualTo(1L);
            assertThat(received.poll(5, TimeUnit.SECONDS)).isEqualTo("ch-" + i + "=m" + i);
        }
        transport.unsubscribe("ch-3").get(5, TimeUnit.SECONDS);
        assertThat(redis.server().command("PUBLISH", "ch-3", "gone")).isEqualTo(0L);
    }

    @Test
    void close_failsPendingCommands_andIsIdempotent() throws Exception {
        RedisServer server = redis.server();
        server.pause();
        try {
            CompletableFuture<Object> pending = transport.eval(Scripts.ECHO_NUMBER, new String[0], new String[] {"1"});
            CompletableFuture<Void> subscribing = transport.subscribe("never");
            long start = System.nanoTime();
            transport.close();
            transport.close();
            assertThatThrownBy(() -> pending.get(1, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(LockConnectionException.class);
            assertThatThrownBy(() -> subscribing.get(1, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(LockConnectionException.class);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1000);
            assertThat(transport.eval(Scripts.ECHO_NUMBER, new String[0], new String[] {"1"}))
                    .failsWithin(Duration.ofSeconds(1));
        } finally {
            server.resume();
        }
    }

    @Test
    void eval_resendsTheCallersArraysAfterNoscript_withoutChangingThem() throws Exception {
        assertThat(transport
                        .eval(Scripts.ECHO_NUMBER, new String[0], new String[] {"4"})
                        .get(5, TimeUnit.SECONDS))
                .isEqualTo(4L);
        redis.server().command("SCRIPT", "FLUSH"); // the next EVALSHA fails with NOSCRIPT and is resent as EVAL
        String[] keys = {};
        String[] args = {"5"};
        assertThat(transport.eval(Scripts.ECHO_NUMBER, keys, args).get(5, TimeUnit.SECONDS))
                .isEqualTo(5L);
        assertThat(args).containsExactly("5");
        assertThat(keys).isEmpty();
    }

    @Test
    void slot_isZero() {
        assertThat(transport.slot("anything")).isZero();
    }
}
