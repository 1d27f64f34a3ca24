package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class TokenOrderCheckerTest {

    @Test
    void check_whenTokensGrowInRealTimeOrder_findsNothing() {
        List<Op> history =
                List.of(acquire("a", 0, 10, 5, 1000), acquire("b", 11, 20, 6, 1000), acquire("c", 21, 30, 9, 1000));
        assertThat(TokenOrderChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenConcurrentAcquiresAreOrderedEitherWay_findsNothing() {
        List<Op> history = List.of(acquire("a", 0, 10, 6, 1000), acquire("b", 5, 20, 5, 1000));
        assertThat(TokenOrderChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenALaterAcquireGetsALowerOrEqualToken_reportsIt() {
        List<Op> lower = List.of(acquire("a", 0, 10, 6, 1000), acquire("b", 11, 20, 5, 1000));
        assertThat(TokenOrderChecker.check(lower))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("b got token 5", "a had got token 6"));
        List<Op> equal = List.of(acquire("a", 0, 10, 6, 1000), acquire("b", 11, 20, 6, 1000));
        assertThat(TokenOrderChecker.check(equal)).hasSize(1);
    }

    @Test
    void checkAcrossNames_whenOneClientGetsOneTokenForTwoNames_reportsIt() {
        List<Op> crossed = List.of(
                Ops.onLock(acquire("l1", 0, 10, 7, 1000), "a"),
                Ops.onLock(acquire("l1", 200, 300, 7, 1300), "b"),
                Ops.onLock(acquire("t1", 200, 300, 7, 1300), "c"));
        assertThat(TokenOrderChecker.checkAcrossNames(crossed))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("l1 got token 7 for b", "for a"));
    }
}
