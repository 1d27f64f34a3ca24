package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an operator must know is logged (System.Logger "dev.dlock", which reaches java.util.logging
 * here), and application callbacks run on the callback executor, never on the transport's threads.
 */
public abstract class FailuresVisibleContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected FailuresVisibleContract() {}

    private static final Logger JUL = Logger.getLogger("dev.dlock");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };
    private RedisServer server;

    @BeforeEach
    void start() {
        JUL.addHandler(capture);
        server = RedisServer.builder().start();
    }

    @AfterEach
    void stop() {
        JUL.removeHandler(capture);
        server.close();
    }

    private LockClient.Builder builder() {
        return builder(server.uri());
    }

    private LogRecord awaitRecord(Level level, String text) throws InterruptedException {
        long until = System.nanoTime() + Timing.scaled(Duration.ofSeconds(10)).toNanos();
        while (System.nanoTime() - until < 0) {
            for (LogRecord r : records) {
                String message = r.getParameters() == null
                        ? r.getMessage()
                        : java.text.MessageFormat.format(r.getMessage(), r.getParameters());
                if (r.getLevel().equals(level) && message.contains(text)) {
                    return r;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no " + level + " record containing '" + text + "' in "
                + records.stream().map(LogRecord::getMessage).toList());
    }

    @Test
    void aLossListenerThatThrows_isLogged_andListenersRunOnTheCallbackExecutor() throws Exception {
        try (LockClient client = builder().leaseTime(Duration.ofMillis(300)).build()) {
            Lease lease = client.lock("lost").acquire();
            CompletableFuture<String> thread = new CompletableFuture<>();
            lease.onLost(loss -> {
                thread.complete(Thread.currentThread().getName());
                throw new IllegalStateException("listener failure");
            });
            server.command("DEL", "dlock:{lost}"); // the next renewal finds the key gone
            assertThat(thread.get(10, TimeUnit.SECONDS)).startsWith("dlock-callback-");
            LogRecord failure = awaitRecord(Level.WARNING, "loss listener of lock 'lost'");
            assertThat(failure.getThrown()).hasMessage("listener failure");
            awaitRecord(Level.WARNING, "dlock lost lock 'lost'");
        }
    }

    @Test
    void failedRenewals_areLogged() throws Exception {
        try (LockClient client = builder()
                .leaseTime(Duration.ofMillis(600))
                .commandTimeout(Duration.ofMillis(150))
                .build()) {
            Lease lease = client.lock("renew").acquire();
            server.pause();
            try {
                awaitRecord(Level.WARNING, "could not renew 1 lease(s)");
            } finally {
                server.resume();
            }
            assertThat(lease.isValid() || lease.whenLost().isDone()).isTrue();
        }
    }

    @Test
    void anEvictingServer_isReportedAtConnect() throws Exception {
        server.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        try (LockClient client = builder().build()) {
            awaitRecord(Level.WARNING, "maxmemory-policy allkeys-lru");
        }
    }

    /**
     * A slow stage chained on one asynchronous acquire must not hold up another acquire's hand-off:
     * application stages run on the callback executor, not on the thread that reads Redis' replies.
     */
    @Test
    void aSlowAsyncStage_delaysNoOtherHandOff() throws Exception {
        ExecutorService mine = Executors.newCachedThreadPool(r -> new Thread(r, "app-callbacks"));
        try (LockClient holder = builder().build();
                LockClient client = builder().callbackExecutor(mine).build()) {
            Lease h1 = holder.lock("slow-1").acquire();
            Lease h2 = holder.lock("slow-2").acquire();
            CompletableFuture<String> slowStage = client.lock("slow-1")
                    .acquireAsync(Duration.ofSeconds(30))
                    .thenApply(lease -> {
                        try {
                            Thread.sleep(3_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        lease.release();
                        return Thread.currentThread().getName();
                    });
            CompletableFuture<Lease> other = client.lock("slow-2").acquireAsync(Duration.ofSeconds(30));
            Thread.sleep(200); // both queued
            h1.release(); // its stage starts sleeping
            Thread.sleep(100);
            long released = System.nanoTime();
            h2.release();
            Lease second = other.get(10, TimeUnit.SECONDS);
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released);
            assertThat(tookMillis).as("ms until the second hand-off completed").isLessThan(1_500);
            second.release();
            assertThat(slowStage.get(10, TimeUnit.SECONDS)).isEqualTo("app-callbacks");
        } finally {
            mine.shutdownNow();
        }
    }
}
