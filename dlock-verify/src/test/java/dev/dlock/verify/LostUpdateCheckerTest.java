package dev.dlock.verify;

import static dev.dlock.verify.Ops.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class LostUpdateCheckerTest {

    private static final List<Op> HISTORY = List.of(
            write("a", 0, 1, Op.OK, 1, "a-1w"),
            write("b", 2, 3, Op.OK, 2, "b-1w"),
            write("c", 4, Long.MAX_VALUE, Op.UNKNOWN, 3, "c-1w"),
            write("d", 5, 6, Op.FAIL, 1, "d-1w"));

    @Test
    void check_whenEveryAcknowledgedWriteAppearsOnce_findsNothing() {
        assertThat(LostUpdateChecker.check(HISTORY, List.of("a-1w", "b-1w"))).isEmpty();
        assertThat(LostUpdateChecker.check(HISTORY, List.of("a-1w", "b-1w", "c-1w")))
                .isEmpty();
    }

    @Test
    void check_whenAnAcknowledgedWriteIsMissing_reportsLostUpdate() {
        assertThat(LostUpdateChecker.check(HISTORY, List.of("b-1w")))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("a-1w", "appears 0 times"));
    }

    @Test
    void check_whenAWriteAppearsTwice_reportsIt() {
        assertThat(LostUpdateChecker.check(HISTORY, List.of("a-1w", "b-1w", "b-1w")))
                .singleElement()
                .satisfies(v -> assertThat(v.message()).contains("b-1w", "appears 2 times"));
    }

    @Test
    void check_whenARefusedOrUnknownElementAppears_reportsIt() {
        assertThat(LostUpdateChecker.check(HISTORY, List.of("a-1w", "b-1w", "d-1w", "x-9w")))
                .hasSize(2)
                .anySatisfy(v -> assertThat(v.message()).contains("d-1w was refused"))
                .anySatisfy(v -> assertThat(v.message()).contains("x-9w appears but no client wrote it"));
    }
}
