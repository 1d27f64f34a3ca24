package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static dev.dlock.verify.Ops.ms;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class LivenessCheckerTest {

    private static final long TTL = ms(1000);

    private static Op fault(long start, long heal, long from) {
        return Ops.op("nemesis", Op.FAULT, start, heal, Op.OK, 0, from, "", "server-pause-long");
    }

    @Test
    void check_whenLockIsTakenWithinTtlPlusOneSecondOfHeal_findsNothing() {
        List<Op> history = List.of(fault(0, 3000, 3000), acquire("a", 2500, 4900, 1, 5900));
        assertThat(LivenessChecker.check(history, TTL)).isEmpty();
    }

    @Test
    void check_whenLockIsTakenTooLateOrNever_reportsIt() {
        List<Op> late = List.of(fault(0, 3000, 3000), acquire("a", 4000, 5100, 1, 6000));
        assertThat(LivenessChecker.check(late, TTL))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("server-pause-long", "after 2100 ms"));
        assertThat(LivenessChecker.check(List.of(fault(0, 3000, 3000)), TTL))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("never"));
    }

    @Test
    void check_whenACallOutlivesItsTimeoutByMoreThanOneSecond_reportsIt() {
        Op slow = Ops.op("a", Op.RELEASE, 0, 6100, Op.UNKNOWN, 1, 0, "", "timeout"); // timeout 5000 ms
        Op fine = Ops.op("b", Op.RELEASE, 0, 5900, Op.UNKNOWN, 2, 0, "", "timeout");
        Op never = Ops.op("c", Op.RELEASE, 0, Long.MAX_VALUE, Op.UNKNOWN, 3, 0, "", "");
        assertThat(LivenessChecker.check(List.of(slow, fine, never), TTL))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("took 6100 ms"));
    }
}
