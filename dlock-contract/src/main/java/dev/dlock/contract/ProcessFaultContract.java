package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Holders in other processes that crash or freeze, and a Redis restart with AOF. */
public abstract class ProcessFaultContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected ProcessFaultContract() {}

    private static final long TTL_MS = 2000;

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().aof(true).build();

    private static Duration scaled(long millis) {
        return Timing.scaled(Duration.ofMillis(millis));
    }

    /** A {@link HolderMain} in its own JVM, on this test's transport, holding {@code name} with a TTL_MS lease. */
    private JvmProcess startHolder(RedisServer server, String name) {
        return HolderProcesses.start(
                HolderMain.class,
                server.uri(),
                name,
                Long.toString(TTL_MS),
                transport().getClass().getName());
    }

    @Test
    void sigkillOfHolder_anotherProcessAcquiresWithinTtlPlus1s() throws Exception {
        RedisServer server = redis.server();
        try (JvmProcess holder = startHolder(server, "crash");
                LockClient other = connect(server.uri())) {
            holder.awaitLine("ACQUIRED", scaled(20_000));
            holder.kill();
            long start = System.nanoTime();
            Lease lease = other.lock("crash").tryAcquire(scaled(TTL_MS + 1000)).orElseThrow();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThanOrEqualTo(TTL_MS + 1000);
            lease.release();
        }
    }

    @Test
    void sigstopPastTtl_newHolderGetsHigherToken_pausedHolderIsFencedAndLost() throws Exception {
        RedisServer server = redis.server();
        RedisClient raw = RedisClient.create(server.uri());
        try (JvmProcess holder = startHolder(server, "pause");
                LockClient other = connect(server.uri());
                StatefulRedisConnection<String, String> conn = raw.connect()) {
            long oldToken =
                    Long.parseLong(holder.awaitLine("ACQUIRED", scaled(20_000)).split(" ")[1]);
            holder.pause();
            Lease lease = other.lock("pause").tryAcquire(scaled(TTL_MS * 3)).orElseThrow();
            assertThat(lease.fencingToken()).isGreaterThan(oldToken);
            assertThat(HolderMain.fencedWrite(conn, "pause", lease.fencingToken()))
                    .isTrue();
            holder.resume();
            holder.awaitLine("LOST", scaled(TTL_MS * 2));
            holder.send("valid");
            assertThat(holder.awaitLine("VALID", scaled(5000))).isEqualTo("VALID false");
            holder.send("write");
            assertThat(holder.awaitLine("WRITE", scaled(5000))).isEqualTo("WRITE rejected");
            holder.send("release");
            holder.awaitLine("RELEASE", scaled(5000));
            assertThat(other.lock("pause").info().holderId()).isPresent();
            assertThat(lease.isValid()).isTrue();
            lease.release();
        } finally {
            raw.shutdown();
        }
    }

    @Test
    void redisRestartWithAof_lockAndTokenOrderSurvive() {
        RedisServer server = redis.server();
        try (LockClient a =
                        builder(server.uri()).leaseTime(Duration.ofSeconds(6)).build();
                LockClient b = connect(server.uri())) {
            Lease lease = a.lock("restart").acquire();
            server.restart();
            assertThat(b.lock("restart").tryAcquire(Duration.ZERO)).isEmpty();
            assertThat(lease.isValid()).isTrue();
            lease.release();
            Lease next = b.lock("restart").tryAcquire(scaled(5000)).orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(lease.fencingToken());
            next.release();
        }
    }
}
