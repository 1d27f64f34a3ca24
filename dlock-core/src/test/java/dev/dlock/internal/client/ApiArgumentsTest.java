package dev.dlock.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.internal.testing.FakeTransport;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The public API's argument and state checks, uniformly: a null argument throws {@link
 * NullPointerException} naming it, and every method that would talk to Redis throws {@link
 * IllegalStateException} once the client is closed — all before any I/O (the fake transport records
 * every call, and none is sent).
 */
final class ApiArgumentsTest {
    private final FakeTransport redis = new FakeTransport();
    private final RedisLockClient client = RedisLockClient.on(redis, 3_000, System::nanoTime, Runnable::run);

    @AfterEach
    void close() {
        redis.answerEverything();
        client.close();
    }

    @Test
    void semaphoreArguments_areCheckedBeforeAnyIo_namingTheArgument() {
        int before = redis.evals.get();
        assertThatThrownBy(() -> client.semaphore(null, 1))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("name");
        assertThatThrownBy(() -> client.semaphore("s", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("permits");
        DistributedSemaphore semaphore = client.semaphore("s", 3);
        assertThatThrownBy(() -> semaphore.acquire(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> semaphore.acquire(4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("n must be between 1 and the semaphore's 3 permits, was 4");
        assertThatThrownBy(() -> semaphore.tryAcquire(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> semaphore.tryAcquire(1, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> semaphore.tryAcquire(1, Duration.ZERO, Duration.ofMillis(99)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTime");
        assertThatThrownBy(() -> semaphore.acquireAsync(5, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> semaphore.setPermits(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("permits");
        assertThat(redis.evals.get()).as("nothing sent").isEqualTo(before);
        client.close();
        assertThatThrownBy(() -> client.semaphore("s", 3)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(semaphore::acquire).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(semaphore::availablePermits).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void readWriteLockArguments_areCheckedBeforeAnyIo_namingTheArgument() {
        int before = redis.evals.get();
        assertThatThrownBy(() -> client.readWriteLock(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("name");
        assertThatThrownBy(() -> client.readWriteLock(" ")).isInstanceOf(IllegalArgumentException.class);
        DistributedReadWriteLock rw = client.readWriteLock("rw");
        for (DistributedLock lock : new DistributedLock[] {rw.readLock(), rw.writeLock()}) {
            assertThat(lock.name()).isEqualTo("rw");
            assertThatThrownBy(() -> lock.tryAcquire(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> lock.tryAcquire(Duration.ofSeconds(-1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("wait");
            assertThatThrownBy(() -> lock.tryAcquire(Duration.ZERO, Duration.ofMillis(99)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("leaseTime");
            assertThatThrownBy(() -> lock.acquireAsync(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> lock.tryLock(-1, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
            assertThatThrownBy(lock::fencingToken).isInstanceOf(IllegalMonitorStateException.class);
            assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
            assertThat(lock.getHoldCount()).isZero();
        }
        assertThatThrownBy(() -> rw.downgrade(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("writeLease");
        assertThat(redis.evals.get()).as("nothing sent").isEqualTo(before);
        client.close();
        assertThatThrownBy(() -> client.readWriteLock("rw")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rw.readLock().acquire()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rw.writeLock().tryLock()).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rw.writeLock().info()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nullArguments_throwNullPointerException_namingTheArgument() throws Exception {
        DistributedLock lock = client.lock("x");
        LockAdmin admin = client.admin();
        Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
        calls.put("name", () -> client.lock(null));
        calls.put("wait", () -> lock.tryAcquire(null));
        calls.put("wait ", () -> lock.tryAcquire(null, Duration.ofSeconds(1)));
        calls.put("leaseTime", () -> lock.tryAcquire(Duration.ZERO, null));
        calls.put("wait  ", () -> lock.acquireAsync(null));
        calls.put("unit", () -> lock.tryLock(1, null));
        calls.put("name ", () -> admin.status(null));
        calls.put("pattern", () -> admin.list(null));
        calls.put("name  ", () -> admin.forceUnlock(null));
        calls.put("name   ", () -> admin.purge(null));
        calls.put("name    ", () -> admin.keyBeside(null, "x"));
        calls.put("suffix", () -> admin.keyBeside("x", null));
        calls.put("redisUri", () -> LockClient.connect(null));
        calls.put(
                "leaseTime ",
                () -> LockClient.builder().redisUri("redis://h").leaseTime(null).build());
        calls.put(
                "keyPrefix",
                () -> LockClient.builder().redisUri("redis://h").keyPrefix(null).build());
        calls.put(
                "commandTimeout",
                () -> LockClient.builder()
                        .redisUri("redis://h")
                        .commandTimeout(null)
                        .build());
        calls.put(
                "clientName",
                () -> LockClient.builder()
                        .redisUri("redis://h")
                        .clientName(null)
                        .build());
        for (Map.Entry<String, ThrowingCallable> call : calls.entrySet()) {
            assertThatThrownBy(call.getValue())
                    .as(call.getKey().strip())
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage(call.getKey().strip());
        }
        Lease lease = take(lock);
        assertThatThrownBy(() -> lease.onLost(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aClosedClient_refusesEveryCallThatWouldTalkToRedis_beforeAnyIo() throws Exception {
        DistributedLock lock = client.lock("x");
        LockAdmin admin = client.admin();
        redis.answerEverything();
        client.close();
        int sent = redis.evals.get();
        Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
        calls.put("client.lock", () -> client.lock("y"));
        calls.put("client.admin", client::admin);
        calls.put("lock", lock::lock);
        calls.put("lockInterruptibly", lock::lockInterruptibly);
        calls.put("tryLock", lock::tryLock);
        calls.put("tryLock(time)", () -> lock.tryLock(1, TimeUnit.SECONDS));
        calls.put("acquire", lock::acquire);
        calls.put("tryAcquire", () -> lock.tryAcquire(Duration.ZERO));
        calls.put("tryAcquire(lease)", () -> lock.tryAcquire(Duration.ZERO, Duration.ofSeconds(1)));
        calls.put("acquireAsync", () -> lock.acquireAsync(Duration.ZERO));
        calls.put("isLocked", lock::isLocked);
        calls.put("info", lock::info);
        calls.put("status", () -> admin.status("x"));
        calls.put("list", () -> admin.list("*"));
        calls.put("forceUnlock", () -> admin.forceUnlock("x"));
        calls.put("purge", () -> admin.purge("x"));
        calls.put("keyBeside", () -> admin.keyBeside("x", "y"));
        for (Map.Entry<String, ThrowingCallable> call : calls.entrySet()) {
            assertThatThrownBy(call.getValue())
                    .as(call.getKey())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
        }
        assertThat(redis.evals.get()).as("script calls sent after close").isEqualTo(sent);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(lock.isHeldByCurrentThread()).isFalse();
    }

    private Lease take(DistributedLock lock) throws Exception {
        CompletableFuture<Lease> acquire = lock.acquireAsync(Duration.ZERO);
        redis.next().reply().complete(1L);
        return acquire.get(5, TimeUnit.SECONDS);
    }
}
