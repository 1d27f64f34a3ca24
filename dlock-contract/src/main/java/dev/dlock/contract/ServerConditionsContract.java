package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.Lease;
import dev.dlock.LockAuthenticationException;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import dev.dlock.LockServerException;
import dev.dlock.testkit.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Server conditions a client must handle: passwords, out of memory, a flushed script cache, a frozen server. */
public abstract class ServerConditionsContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ServerConditionsContract() {}

    @Test
    void wrongOrMissingPassword_failsWithAuthenticationError() {
        try (RedisServer server = RedisServer.builder().password("s3cret").start()) {
            String bare = "redis://127.0.0.1:" + server.port();
            assertThatThrownBy(() -> connect(bare)).isInstanceOf(LockAuthenticationException.class);
            assertThatThrownBy(() -> connect("redis://:wrong@127.0.0.1:" + server.port()))
                    .isInstanceOf(LockAuthenticationException.class)
                    .hasMessageContaining("***")
                    .hasMessageNotContaining("wrong@");
            try (LockClient ok = connect(server.uri())) {
                assertThat(ok.lock("a").tryLock()).isTrue();
                ok.lock("a").unlock();
            }
        }
    }

    @Test
    void outOfMemory_clearError_noTokenBurned_releaseStillWorks() {
        try (RedisServer server = RedisServer.builder().start();
                LockClient client = connect(server.uri())) {
            Lease held = client.lock("held").acquire();
            server.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            server.command("CONFIG", "SET", "maxmemory", "1");
            assertThatThrownBy(() -> client.lock("fresh").tryAcquire(Duration.ZERO))
                    .isInstanceOf(LockServerException.class)
                    .hasMessageContaining("out of memory")
                    .hasMessageContaining("dlock:{fresh}");
            assertThat(server.command("EXISTS", "dlock:{fresh}", "dlock:{fresh}:fence"))
                    .isEqualTo(0L);
            held.release();
            assertThat(server.command("EXISTS", "dlock:{held}")).isEqualTo(0L);
            server.command("CONFIG", "SET", "maxmemory", "0");
            assertThat(client.lock("fresh").tryLock()).isTrue();
            client.lock("fresh").unlock();
        }
    }

    @Test
    void close_releasesEveryLease_andIsIdempotent() {
        try (RedisServer server = RedisServer.builder().start()) {
            LockClient client = connect(server.uri());
            client.lock("one").acquire();
            client.lock("two").lock();
            client.close();
            client.close();
            assertThat(server.command("EXISTS", "dlock:{one}", "dlock:{two}")).isEqualTo(0L);
            assertThatThrownBy(() -> client.lock("one")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void scriptsRecoverFromNoscript_afterScriptFlush() {
        try (RedisServer server = RedisServer.builder().start();
                LockClient client = connect(server.uri())) {
            client.lock("s").acquire().release();
            server.command("SCRIPT", "FLUSH");
            Lease again = client.lock("s").acquire();
            assertThat((List<?>) server.command("HGETALL", "dlock:{s}")).isNotEmpty();
            again.release();
        }
    }

    @Test
    void redisStoppedMidOperation_failsWithinTheCommandTimeout_namingTheUri_andLeavesNoGhostLock() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                LockClient client = builder(server.uri())
                        .commandTimeout(Duration.ofSeconds(1))
                        .build()) {
            Lease held = client.lock("held").acquire();
            server.pause(); // SIGSTOP: the connection stays open, nothing answers
            try {
                long start = System.nanoTime();
                assertThatThrownBy(() -> client.lock("m").acquire())
                        .isInstanceOf(LockConnectionException.class)
                        .hasMessageContaining("127.0.0.1:" + server.port());
                assertThatThrownBy(() -> client.lock("m")
                                .acquireAsync(Duration.ofSeconds(30))
                                .get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(LockConnectionException.class);
                assertThatThrownBy(held::release).isInstanceOf(LockConnectionException.class);
                // each call gave up after its 1 s command timeout, none hung
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                        .isLessThan(3 * 2000 + 1000);
            } finally {
                server.resume();
            }
            Thread.sleep(500);
            Lease again = client.lock("m").tryAcquire(Duration.ofSeconds(5)).orElseThrow();
            assertThat(again.isValid()).isTrue();
            again.release();
        }
    }
}
