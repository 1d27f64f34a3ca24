package dev.dlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.LockClient;
import dev.dlock.resp.RespTransportFactory;
import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisExtension;
import dev.dlock.testkit.Timing;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A node that dies holding a ShedLock lock keeps it until lockAtMostFor, and not longer. */
final class HolderDeathIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long AT_MOST_MS = 3000;

    @Test
    void sigkillOfTheHolder_theLockLastsUntilLockAtMostFor_thenIsFree() throws Exception {
        try (LockClient client = LockClient.builder()
                        .redisUri(redis.server().uri())
                        .transport(new RespTransportFactory())
                        .build();
                JvmProcess holder = JvmProcess.start(
                        ShedHolderMain.class, redis.server().uri(), "nightly", Long.toString(AT_MOST_MS))) {
            DlockLockProvider provider = new DlockLockProvider(client);
            holder.awaitLine("LOCKED", Timing.scaled(Duration.ofSeconds(30)));
            long locked = System.nanoTime(); // the lock was taken before this, so it ends before locked + AT_MOST_MS
            holder.kill();
            assertThat(provider.lock(DlockLockProviderIT.config("nightly")))
                    .as("the dead node's lock holds")
                    .isEmpty();
            Thread.sleep(AT_MOST_MS / 2);
            assertThat(provider.lock(DlockLockProviderIT.config("nightly")))
                    .as("half way through lockAtMostFor")
                    .isEmpty();
            Optional<SimpleLock> next;
            while ((next = provider.lock(DlockLockProviderIT.config("nightly"))).isEmpty()) {
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - locked))
                        .as("free at lockAtMostFor")
                        .isLessThanOrEqualTo(AT_MOST_MS
                                + Timing.scaled(Duration.ofMillis(500)).toMillis());
                Thread.sleep(20);
            }
            next.get().unlock();
        }
    }
}
