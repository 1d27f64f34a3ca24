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
}
