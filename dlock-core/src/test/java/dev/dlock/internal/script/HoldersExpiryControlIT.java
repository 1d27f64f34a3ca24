package dev.dlock.internal.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedSemaphore;
import dev.dlock.LockClient;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.internal.util.Controls;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The negative control {@code holders-expiry-lowered} (Controls) brings issue 24's defect 4 back in a
 * client built with it, and only there: a short permit beside a 30-day one cuts the holders' hash to 7
 * days. Without the control the same calls leave the hash at the 30-day lease (SharedExpiryIT shows
 * why that matters). The verifier's scenario relies on this, so both sides are pinned on a real server.
 */
@Isolated // sets dlock.unsafe.control, which every client built meanwhile would read
final class HoldersExpiryControlIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long IDLE_MS = Duration.ofDays(7).toMillis();
    private static final Duration LONG = Duration.ofDays(30);

    @Test
    void theControl_lowersTheHoldersKey_toSevenDays() {
        assertThat(holdersExpiryAfterAShortPermitBesideALongOne("holders-expiry-lowered"))
                .as("with the control")
                .isBetween(IDLE_MS - 60_000, IDLE_MS);
    }

    @Test
    void withoutTheControl_theHoldersKeyKeepsTheLongLease() {
        assertThat(holdersExpiryAfterAShortPermitBesideALongOne(""))
                .as("without the control")
                .isGreaterThan(LONG.toMillis() - 60_000);
    }

    @Test
    void theControl_isParsedByItsPropertyValue() {
        assertThat(Controls.parse("holders-expiry-lowered").holdersExpiryLowered())
                .isTrue();
        assertThat(Controls.parse("expired-handoff").holdersExpiryLowered()).isFalse();
        assertThat(Scripts.holdersExpiryLowered(Scripts.RENEW))
                .as("no shared.lua")
                .isSameAs(Scripts.RENEW);
        for (var script : new dev.dlock.spi.Script[] {
            Scripts.SEMAPHORE_ACQUIRE,
            Scripts.SEMAPHORE_RELEASE,
            Scripts.SEMAPHORE_SET,
            Scripts.RW_ACQUIRE,
            Scripts.RW_RELEASE,
            Scripts.SHARED_INFO
        }) {
            assertThat(Scripts.holdersExpiryLowered(script).source())
                    .as(script.name())
                    .doesNotContain(Scripts.HOLDERS_EXPIRY_LINE)
                    .contains("redis.call('PEXPIRE', holds, keep)");
        }
    }

    /** The holders' hash's PTTL after a 30-day and a 30 s permit of a client built with the property. */
    private static long holdersExpiryAfterAShortPermitBesideALongOne(String control) {
        String before = System.getProperty(Controls.PROPERTY);
        System.setProperty(Controls.PROPERTY, control);
        try (LockClient client = LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new SocketTransport.Factory())
                .build()) {
            DistributedSemaphore semaphore = client.semaphore("control", 2);
            assertThat(semaphore.tryAcquire(1, Duration.ZERO, LONG))
                    .as("30-day permit")
                    .isPresent();
            assertThat(semaphore.tryAcquire(1, Duration.ZERO, Duration.ofSeconds(30)))
                    .as("30 s permit")
                    .isPresent();
            return (Long) redis.server()
                    .command("PTTL", SemaphoreKeys.of("dlock", "control").holds());
        } finally {
            if (before == null) {
                System.clearProperty(Controls.PROPERTY);
            } else {
                System.setProperty(Controls.PROPERTY, before);
            }
        }
    }
}
