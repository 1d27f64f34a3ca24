package com.example.dlock.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockClient;
import dev.dlock.testkit.RedisExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

@SpringBootTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvoiceServiceTest {

    // One throwaway redis-server for the class (never port 6379).
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry properties) {
        properties.add("spring.data.redis.url", () -> redis.server().uri());
    }

    @Autowired
    InvoiceService invoices;

    @Autowired
    LockClient client;

    @Test
    void concurrentCalls_takeTurns_andEachHoldHasAHigherToken() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Long>> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                calls.add(pool.submit(() -> invoices.process("42")));
            }
            List<Long> tokens = new ArrayList<>();
            for (Future<Long> call : calls) {
                tokens.add(call.get(30, TimeUnit.SECONDS)); // a call that throws or hangs fails the test
            }
            assertThat(tokens).doesNotHaveDuplicates().allMatch(token -> token > 0);
        } finally {
            pool.shutdownNow();
        }
        assertThat(client.lock("invoice:42").isLocked()).as("released after each call").isFalse();
    }
}
