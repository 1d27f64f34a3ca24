package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static dev.dlock.verify.Ops.release;
import static dev.dlock.verify.Ops.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.verify.Violation.Checker;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ReadWriteCheckerTest {

    private static final String READ = Op.KIND_READ;
    private static final String WRITE = Op.KIND_WRITE;

    @Test
    void check_whenReadHoldsOverlap_findsNothing_andReportsTheirPeak() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000, READ),
                acquire("b", 0, 20, 2, 1000, READ),
                acquire("c", 0, 30, 3, 1000, READ),
                release("a", 40, 41, 1),
                acquire("d", 35, 45, 4, 1000, READ),
                release("b", 50, 51, 2),
                release("c", 50, 51, 3),
                release("d", 60, 61, 4));
        assertThat(ReadWriteChecker.check(history)).isEmpty();
        assertThat(ReadWriteChecker.peakReaders(history)).isEqualTo(3);
    }

    @Test
    void check_whenAWriterHoldsBesideAReader_reportsThePairNamingBoth() {
        List<Op> history = List.of(
                acquire("r", 0, 10, 1, 1000, READ),
                acquire("w", 0, 30, 2, 1000, WRITE),
                release("r", 40, 41, 1),
                release("w", 50, 51, 2));
        assertThat(ReadWriteChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.checker()).isEqualTo(Checker.READ_WRITE))
                .satisfies(v -> assertThat(v.message())
                        .startsWith("writer beside another holder: r read token 1 held [10000000, 40000000)")
                        .contains("w write token 2 from 30000000 (10.0 ms overlap)"));
    }

    @Test
    void check_whenAReaderGetsInWhileAWriterHolds_reportsIt() {
        List<Op> history = List.of(
                acquire("w", 0, 10, 1, 1000, WRITE),
                acquire("r", 0, 20, 2, 1000, READ),
                release("r", 30, 31, 2),
                release("w", 40, 41, 1));
        assertThat(ReadWriteChecker.check(history))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("w write token 1", "r read token 2"));
    }

    @Test
    void check_whenTwoWritersOverlap_reportsIt_andEachPairWithTheWriterOnce() {
        List<Op> history = List.of(
                acquire("w1", 0, 10, 1, 1000, WRITE),
                acquire("w2", 0, 20, 2, 1000, WRITE),
                acquire("r", 0, 25, 3, 1000, READ),
                release("w1", 30, 31, 1),
                release("w2", 40, 41, 2),
                release("r", 40, 41, 3));
        assertThat(ReadWriteChecker.check(history))
                .extracting(Violation::message)
                .hasSize(3)
                .anySatisfy(m -> assertThat(m).contains("w1 write token 1", "w2 write token 2"))
                .anySatisfy(m -> assertThat(m).contains("w1 write token 1", "r read token 3"))
                .anySatisfy(m -> assertThat(m).contains("w2 write token 2", "r read token 3"));
    }

    @Test
    void check_takesIntervalsHalfOpen_cutsAtTheDeadline_andSkipsHoldsNeverValid() {
        List<Op> history = List.of(
                acquire("r1", 0, 10, 1, 1000, READ),
                release("r1", 30, 31, 1),
                acquire("w1", 0, 30, 2, 1000, WRITE), // starts as r1's interval ends
                release("w1", 40, 41, 2),
                acquire("r2", 0, 40, 3, 60, READ), // deadline 60, released late: its interval ends at 60
                release("r2", 500, 501, 3),
                acquire("w2", 0, 60, 4, 1000, WRITE),
                acquire("r3", 0, 200, 5, 150, READ), // already past its deadline when its reply came
                release("w2", 300, 301, 4));
        assertThat(ReadWriteChecker.check(history)).isEmpty();
        assertThat(ReadWriteChecker.peakReaders(history)).isEqualTo(1);
    }

    @Test
    void check_endsAHoldAtItsLeasesReportOfLoss() {
        Op acquired = acquire("w", 0, 10, 1, 1000, WRITE);
        Op lost = Ops.op("w", Op.LOST, 20, 20, Op.OK, 1, 0, "", "lost");
        lost = new Op(
                lost.scenario(),
                lost.client(),
                lost.pid(),
                -acquired.seq(),
                lost.type(),
                lost.invoke(),
                lost.complete(),
                lost.outcome(),
                lost.token(),
                lost.deadline(),
                lost.element(),
                lost.timeoutNanos(),
                lost.detail(),
                lost.lock(),
                0,
                "");
        List<Op> history = List.of(
                acquired, lost, acquire("r", 0, 25, 2, 1000, READ), release("r", 30, 31, 2), release("w", 40, 41, 1));
        assertThat(ReadWriteChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenNoHoldRecordsAKind_findsNothingAndNoReaders() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000),
                acquire("b", 0, 20, 2, 1000),
                release("a", 40, 41, 1),
                release("b", 50, 51, 2));
        assertThat(ReadWriteChecker.check(history)).isEmpty();
        assertThat(ReadWriteChecker.peakReaders(history)).isZero();
    }

    @Test
    void checks_onAReadWriteLock_judgeOverlapsByKind_andUsesAsCheckerOneDoes() {
        List<Op> history = List.of(
                acquire("a", 0, 10, 1, 1000, READ),
                acquire("b", 0, 20, 2, 1000, READ),
                write("b", 1500, 1501, Op.FAIL, 2, "b-1w"), // after its deadline
                release("a", 40, 41, 1),
                release("b", 1600, 1601, 2));
        Map<String, FencedResource.Snapshot> snapshots =
                Map.of("test", new FencedResource.Snapshot("", List.of(), List.of()));
        List<Violation> found = Checks.run(history, snapshots, 1_000_000_000L, 1, true);
        assertThat(found).noneMatch(v -> v.checker() == Checker.READ_WRITE);
        assertThat(found)
                .filteredOn(v -> v.checker() == Checker.MUTUAL_EXCLUSION)
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("outside its hold"));
        assertThat(Checks.run(history, snapshots, 1_000_000_000L, 1, false))
                .anySatisfy(v -> assertThat(v.message()).startsWith("overlap"));
    }
}
