package dev.dlock.verify;

import static dev.dlock.verify.Ops.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class FenceCheckerTest {

    @Test
    void check_whenAcceptedTokensNeverDecreaseAndRefusalsMatch_findsNothing() {
        List<Op> history = List.of(write("a", 0, 1, Op.OK, 5, "a-1w"), write("b", 2, 3, Op.FAIL, 4, "b-1w"));
        FencedResource.Snapshot snapshot =
                new FencedResource.Snapshot("a-1w,", List.of(5L, 5L, 7L), List.of("write:4:5:b-1w"));
        assertThat(FenceChecker.check(history, snapshot)).isEmpty();
    }

    @Test
    void check_whenAcceptedTokenIsLowerThanAnEarlierOne_reportsIt() {
        FencedResource.Snapshot snapshot = new FencedResource.Snapshot("", List.of(5L, 7L, 6L), List.of());
        assertThat(FenceChecker.check(List.of(), snapshot))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("accepted token 6", "after accepting 7"));
    }

    @Test
    void check_whenClientWasRefusedButResourceRecordedNothing_reportsIt() {
        List<Op> history = List.of(write("b", 2, 3, Op.FAIL, 4, "b-1w"));
        FencedResource.Snapshot snapshot = new FencedResource.Snapshot("", List.of(5L), List.of());
        assertThat(FenceChecker.check(history, snapshot))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("did not record"));
    }

    @Test
    void check_whenResourceRefusedATokenNotLowerThanItsFence_reportsIt() {
        List<Op> history = List.of(write("b", 2, 3, Op.FAIL, 9, "b-1w"));
        FencedResource.Snapshot snapshot = new FencedResource.Snapshot("", List.of(5L), List.of("write:9:5:b-1w"));
        assertThat(FenceChecker.check(history, snapshot))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("not lower than fence"));
    }

    @Test
    void check_whenRefusalRecordedForAnAcknowledgedWrite_reportsIt() {
        List<Op> history = List.of(write("b", 2, 3, Op.OK, 4, "b-1w"));
        FencedResource.Snapshot snapshot = new FencedResource.Snapshot("", List.of(5L), List.of("write:4:5:b-1w"));
        assertThat(FenceChecker.check(history, snapshot))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("was told it was accepted"));
    }
}
