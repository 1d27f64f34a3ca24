package dev.dlock.internal.script;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedSemaphore;
import dev.dlock.LockClient;
import dev.dlock.internal.testing.SocketTransport;
import dev.dlock.internal.util.Controls;
import dev.dlock.spi.Script;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The negative control {@code lost-set-permits} (Controls) brings issue 24's defect 5 back in a client built with
 * it, and only there: after {@code setPermits(1)} of a semaphore of 3 and a permit of 8 days, 7 days without another
 * use of the name let the record expire, and the next acquires make it again with the count in code, so three
 * holders get in. Without the control the same calls leave the changed count without expiry and let nobody else in
 * (SharedExpiryIT covers the fix in full). Days cannot pass: every key of the name that expires within 7 days is
 * expired by hand, as 7 idle days would have.
 */
@Isolated // sets dlock.unsafe.control, which every client built meanwhile would read
final class LostSetPermitsControlIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    private static final long IDLE_MS = Duration.ofDays(7).toMillis();
    private static final Duration LONG = Duration.ofDays(8);

    @Test
    void theControl_letsThreeHoldersIn_afterSetPermitsOne() {
        assertThat(holdersAfterSevenDays("lost-set-permits", "control-on"))
                .as("with the control")
                .isEqualTo(3);
    }

    @Test
    void withoutTheControl_theSetCountHolds() {
        assertThat(holdersAfterSevenDays("", "control-off"))
                .as("without the control")
                .isEqualTo(1);
    }

    @Test
    void theControl_changesOnlyTheScriptsThatKeepTheRecord() {
        assertThat(Controls.parse("lost-set-permits").has(Controls.Control.LOST_SET_PERMITS))
                .isTrue();
        assertThat(Scripts.lostSetPermits(Scripts.RENEW)).as("no shared.lua").isSameAs(Scripts.RENEW);
        for (Script script : new Script[] {
            Scripts.SEMAPHORE_ACQUIRE,
            Scripts.SEMAPHORE_RELEASE,
            Scripts.SEMAPHORE_SET,
            Scripts.SEMAPHORE_RENEW,
            Scripts.RW_ACQUIRE,
            Scripts.RW_RELEASE,
            Scripts.SHARED_INFO
        }) {
            String source = Scripts.lostSetPermits(script).source();
            assertThat(source).as(script.name()).isNotEqualTo(script.source());
            for (var edit : Scripts.LOST_SET_PERMITS_EDITS) {
                if (script.source().contains(edit.getKey())) {
                    assertThat(source).as(script.name()).contains(edit.getValue());
                }
            }
        }
    }

    /**
     * How many of three tries get a permit of 8 days from a semaphore of 3 set to 1, the first before and the others
     * after 7 idle days, with a client built with the property {@code control}.
     */
    private static int holdersAfterSevenDays(String control, String name) {
        String before = System.getProperty(Controls.PROPERTY);
        System.setProperty(Controls.PROPERTY, control);
        try (LockClient client = LockClient.builder()
                .redisUri(redis.server().uri())
                .transport(new SocketTransport.Factory())
                .build()) {
            DistributedSemaphore semaphore = client.semaphore(name, 3);
            semaphore.setPermits(1);
            int held = semaphore.tryAcquire(1, Duration.ZERO, LONG).isPresent() ? 1 : 0;
            for (String key : SemaphoreKeys.of("dlock", name).scriptKeys()) {
                long pttl = (Long) redis.server().command("PTTL", key);
                if (pttl > 0 && pttl <= IDLE_MS) {
                    redis.server().command("DEL", key); // expired: 7 days without a use of the name
                }
            }
            for (int i = 0; i < 2; i++) {
                held += semaphore.tryAcquire(1, Duration.ZERO, LONG).isPresent() ? 1 : 0;
            }
            return held;
        } finally {
            if (before == null) {
                System.clearProperty(Controls.PROPERTY);
            } else {
                System.setProperty(Controls.PROPERTY, before);
            }
        }
    }
}
