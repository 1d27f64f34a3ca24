package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static dev.dlock.verify.Ops.release;
import static dev.dlock.verify.Ops.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class MutualExclusionCheckerTest {

    @Test
    void check_whenHoldsFollowEachOther_findsNothing() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000),
                write("a", 20, 25, Op.OK, 1, "a-1w"),
                release("a", 30, 35, 1),
                acquire("b", 5, 33, 2, 1030),
                release("b", 40, 45, 2));
        assertThat(MutualExclusionChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenSecondHolderStartsBeforeFirstReleases_reportsOverlap() {
        List<Op> history =
                List.of(acquire("a", 0, 10, 1, 1000), release("a", 100, 105, 1), acquire("b", 5, 50, 2, 1050));
        assertThat(MutualExclusionChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).startsWith("overlap").contains("a token 1", "b token 2"));
    }

    @Test
    void check_whenFirstHolderNeverReleasesButItsDeadlinePassed_findsNothing() {
        List<Op> history = List.of(acquire("a", 0, 10, 1, 1000), acquire("b", 5, 1001, 2, 2000));
        assertThat(MutualExclusionChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenIntervalIsCutAtDeadlineBeforeRelease_overlapOnlyBeforeTheDeadline() {
        List<Op> late =
                List.of(acquire("a", 0, 10, 1, 1000), release("a", 3000, 3001, 1), acquire("b", 5, 999, 2, 2000));
        assertThat(MutualExclusionChecker.check(late)).hasSize(1);
        List<Op> fine =
                List.of(acquire("a", 0, 10, 1, 1000), release("a", 3000, 3001, 1), acquire("b", 5, 1000, 2, 2000));
        assertThat(MutualExclusionChecker.check(fine)).isEmpty();
    }

    @Test
    void check_whenHolderWritesAfterItsDeadline_reportsUseOutsideHold() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000), write("a", 1500, 1501, Op.FAIL, 1, "a-2w"), release("a", 1600, 1601, 1));
        assertThat(MutualExclusionChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("outside its hold"));
    }

    @Test
    void check_whenAcquireFailedOrUnknown_itIsNoHold() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000),
                Ops.op("b", Op.ACQUIRE, 5, 20, Op.UNKNOWN, 0, 0, "", "timeout"),
                Ops.op("c", Op.ACQUIRE, 5, 20, Op.FAIL, 0, 0, "", "busy"));
        assertThat(MutualExclusionChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenSecondHolderStartsBeforeTheFirstLeaseReportedItsLoss_reportsOverlap() {
        Op held = acquire("a", 0, 10, 1, 1000);
        Op lost = Ops.op("a", Op.LOST, 400, 400, Op.OK, 1, 0, "", "renewal found the key gone");
        List<Op> overlapping = List.of(held, lost, acquire("b", 5, 300, 2, 1300));
        assertThat(MutualExclusionChecker.check(overlapping)).hasSize(1);
        List<Op> after = List.of(held, lost, acquire("b", 5, 450, 2, 1450));
        assertThat(MutualExclusionChecker.check(after)).isEmpty();
    }

    @Test
    void check_whenAClientTakesTheSameTokenTwice_itsSecondHoldIsJudgedOnItsOwn() {
        // a stale grant: l1 held token 1 from 10 to 100, then "acquired" token 1 again at 300 while b held the lock
        List<Op> history = List.of(
                acquire("l1", 0, 10, 1, 1000),
                release("l1", 100, 105, 1),
                acquire("b", 110, 120, 2, 1120),
                acquire("l1", 200, 300, 1, 1300),
                release("l1", 350, 355, 1),
                release("b", 400, 405, 2));
        assertThat(MutualExclusionChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("b token 2", "l1 token 1"));
    }
}
