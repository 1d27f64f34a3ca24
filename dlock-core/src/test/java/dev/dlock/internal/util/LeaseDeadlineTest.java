package dev.dlock.internal.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

final class LeaseDeadlineTest {
    @Test
    void deadline_countsFromSend_minusDriftAllowance() {
        long sentAt = 1_000_000_000L;
        long deadline = Validity.deadlineFrom(sentAt, 30_000);
        // 30 s lease: 1% (300 ms) + 2 ms drift allowance
        assertThat(deadline - sentAt).isEqualTo(TimeUnit.MILLISECONDS.toNanos(30_000 - 300 - 2));
    }

    @Test
    void deadline_isAlwaysBeforeRedisExpiry() {
        for (long lease = 1; lease < 100_000; lease = lease * 3 + 1) {
            assertThat(Validity.deadlineFrom(0, lease)).isLessThan(TimeUnit.MILLISECONDS.toNanos(lease));
        }
    }
}
