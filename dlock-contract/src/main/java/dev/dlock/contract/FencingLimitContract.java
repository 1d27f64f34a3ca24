package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockServerException;
import dev.dlock.testkit.RedisExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Tokens are doubles in Lua, exact up to 2^53 - 1: the counter stops there instead of repeating. */
public abstract class FencingLimitContract extends TransportContract {

    /** Extended once by each transport's test class, which names its factory. */
    protected FencingLimitContract() {}

    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @Test
    void tokensIncreaseUpTo2pow53Minus1_thenTheAcquireIsRefused_withNothingWritten() {
        redis.server().command("SET", "dlock:{big}:fence", "9007199254740985");
        try (LockClient client = connect(redis.server().uri())) {
            long last = 9007199254740985L;
            for (int i = 0; ; i++) {
                if (i > 20) {
                    fail("tokens went past 2^53 - 1: last %d", last);
                }
                Lease lease;
                try {
                    lease = client.lock("big").tryAcquire(Duration.ZERO).orElseThrow();
                } catch (LockServerException e) {
                    assertThat(e).hasMessageContaining("2^53");
                    break;
                }
                assertThat(lease.fencingToken()).as("token %d", i).isGreaterThan(last);
                last = lease.fencingToken();
                lease.release();
            }
            assertThat(last).isEqualTo((1L << 53) - 1);
            assertThat(redis.server().command("EXISTS", "dlock:{big}")).isEqualTo(0L);
            assertThat(redis.server().command("GET", "dlock:{big}:fence")).isEqualTo("9007199254740991");
        }
    }
}
