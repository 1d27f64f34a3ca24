package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static dev.dlock.verify.Ops.release;
import static dev.dlock.verify.Ops.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.verify.Violation.Checker;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PermitCheckerTest {

    @Test
    void check_whenAsManyHoldsOverlapAsThereArePermits_findsNothing() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000),
                acquire("b", 0, 20, 2, 1000),
                acquire("c", 0, 30, 3, 1000),
                release("a", 40, 41, 1),
                acquire("d", 35, 40, 4, 1000), // starts as a's interval ends: half-open, no overlap
                release("b", 50, 51, 2),
                release("c", 50, 51, 3),
                release("d", 50, 51, 4));
        assertThat(PermitChecker.check(history, 3)).isEmpty();
    }

    @Test
    void check_whenOneHoldMoreThanThePermitsOverlaps_reportsItOnceNamingTheHolds() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000),
                acquire("b", 0, 20, 2, 1000),
                acquire("c", 0, 30, 3, 1000),
                release("a", 40, 41, 1),
                release("b", 50, 51, 2),
                release("c", 50, 51, 3));
        assertThat(PermitChecker.check(history, 2))
                .singleElement()
                .satisfies(v -> assertThat(v.checker()).isEqualTo(Checker.PERMITS))
                .satisfies(v -> assertThat(v.message())
                        .startsWith("more than 2 holders at 30000000: 3 holds overlap")
                        .contains("a token 1", "b token 2", "c token 3"));
    }

    @Test
    void check_cutsEachHoldAtItsDeadline_andSkipsHoldsThatWereNeverValid() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 100), // deadline 100, released late: its interval ends at 100
                release("a", 500, 501, 1),
                acquire("b", 0, 150, 2, 1000),
                acquire("c", 0, 200, 3, 150), // already past its deadline when its reply came
                release("b", 300, 301, 2));
        assertThat(PermitChecker.check(history, 1)).isEmpty();
    }

    @Test
    void checks_judgeASemaphoreByItsCapacity_andItsUsesAsCheckerOneDoes() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000),
                acquire("b", 0, 20, 2, 1000),
                write("b", 1500, 1501, Op.FAIL, 2, "b-1w"), // after its deadline
                release("a", 40, 41, 1),
                release("b", 1600, 1601, 2));
        List<Violation> found = Checks.run(history, java.util.Map.of(), 1_000_000_000L, 2, false);
        assertThat(found).isEmpty(); // no snapshot: no name judged; the per-name checkers run below
        assertThat(MutualExclusionChecker.check(history, false))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("outside its hold"));
        assertThat(MutualExclusionChecker.check(history, true))
                .anySatisfy(v -> assertThat(v.message()).startsWith("overlap"));
        assertThat(PermitChecker.check(history, 2)).isEmpty();
    }
}
