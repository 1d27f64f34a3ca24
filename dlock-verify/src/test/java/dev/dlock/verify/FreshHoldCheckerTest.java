package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static dev.dlock.verify.Ops.withLease;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class FreshHoldCheckerTest {

    @Test
    void check_whenEveryAcquireReturnsWithHalfItsLeaseLeft_findsNothing() {
        List<Op> history = List.of(
                withLease(acquire("a", 0, 10, 1, 110), 200), // exactly half of 200 ms left
                withLease(acquire("d", 0, 10, 4, 90), 200), // 80 ms: the worker looked 20 ms late
                withLease(acquire("b", 0, 10, 2, 1000), 1000),
                Ops.op("c", Op.ACQUIRE, 0, 10, Op.FAIL, 0, 0, "", "busy"));
        assertThat(FreshHoldChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenALeaseReturnsWithLessThanHalfLeft_reportsIt() {
        List<Op> history = List.of(withLease(acquire("l2", 0, 300, 7, 379), 200));
        assertThat(FreshHoldChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("l2", "token 7", "79.0 ms of its 200 ms"));
    }

    @Test
    void check_whenAnExpiredHoldIsReturned_reportsIt() {
        List<Op> history = List.of(withLease(acquire("l2", 0, 300, 7, 250), 200));
        assertThat(FreshHoldChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("-50.0 ms"));
    }

    @Test
    void check_whenLockReturnedButTheThreadDidNotHoldIt_reportsIt() {
        Op notHeld = withLease(Ops.op("l1", Op.ACQUIRE, 0, 10, Op.OK, 3, 900, "", FreshHoldChecker.NOT_HELD), 1000);
        assertThat(FreshHoldChecker.check(List.of(notHeld)))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("isHeldByCurrentThread() was already false"));
    }
}
