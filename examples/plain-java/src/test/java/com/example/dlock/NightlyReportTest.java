package com.example.dlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dlock.LockClient;
import dev.dlock.lettuce.LettuceTransportFactory;
import dev.dlock.micrometer.DlockMetrics;
import dev.dlock.testkit.RedisExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
final class NightlyReportTest {

    // One throwaway redis-server for the class (never port 6379), flushed between tests.
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @Test
    void runExclusively_fromTwoClients_neverOverlapsAndTokensIncrease() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = new ArrayList<>(); // appended only while holding the lock
        LongConsumer job = token -> {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            tokens.add(token);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // widens the window an overlap would need
            inside.decrementAndGet();
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (LockClient first = LockClient.connect(redis.server().uri());
                LockClient second = LockClient.connect(redis.server().uri())) {
            List<Future<?>> runs = new ArrayList<>();
            for (LockClient client : List.of(first, second)) {
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        NightlyReport.runExclusively(client, job);
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get();
            }
        } finally {
            pool.shutdown();
        }

        assertEquals(0, overlaps.get(), "runs that overlapped another");
        assertEquals(40, tokens.size());
        for (int i = 1; i < tokens.size(); i++) {
            assertTrue(tokens.get(i) > tokens.get(i - 1), "fencing tokens in the order of the runs: " + tokens);
        }
    }

    @Test
    void main_withRedisUriArgument_runsTheJobOnce() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream original = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            NightlyReport.main(new String[] {redis.server().uri()});
        } finally {
            System.setOut(original);
        }

        assertTrue(
                out.toString(StandardCharsets.UTF_8).startsWith("nightly-report ran under fencing token "),
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void runExclusively_onTheLettuceTransport_runsTheJob() {
        long[] token = new long[1];
        try (LockClient client = LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new LettuceTransportFactory())
                .build()) {
            NightlyReport.runExclusively(client, t -> token[0] = t);
        }

        assertTrue(token[0] > 0, "fencing token " + token[0]);
    }

    @Test
    void runExclusively_withMetrics_recordsTheAcquireAndTheRelease() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (LockClient client = LockClient.builder()
                .redisUri(redis.server().uri())
                .listener(new DlockMetrics(registry))
                .build()) {
            NightlyReport.runExclusively(client, token -> {});
        }

        assertEquals(
                1,
                registry.get(DlockMetrics.ACQUIRE)
                        .tag(DlockMetrics.OUTCOME_TAG, "acquired")
                        .timer()
                        .count());
        assertEquals(
                1.0,
                registry.get(DlockMetrics.LEASES_ENDED)
                        .tag(DlockMetrics.OUTCOME_TAG, "released")
                        .counter()
                        .count());
    }
}
