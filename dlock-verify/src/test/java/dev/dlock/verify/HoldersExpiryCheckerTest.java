package dev.dlock.verify;

import static dev.dlock.verify.Ops.acquire;
import static dev.dlock.verify.Ops.ms;
import static dev.dlock.verify.Ops.release;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class HoldersExpiryCheckerTest {

    private static final long DAY_MS = 86_400_000L;

    /** A look at the holders key from {@code invoke} to {@code complete} (ms) that found {@code pttl} ms left. */
    private static Op look(long invoke, long complete, long pttl) {
        long expiresFrom = pttl == -1 ? Long.MAX_VALUE : pttl < 0 ? ms(invoke) : ms(invoke) + ms(pttl);
        Op op = Ops.op("k1", Op.EXPIRY, invoke, complete, Op.OK, 0, 0, "", "PTTL " + pttl);
        return op.completed(op.complete(), Op.OK, 0, expiresFrom, op.detail());
    }

    private static Op read(String client, long invoke, long complete, long token, long deadline) {
        return acquire(client, invoke, complete, token, deadline, Op.KIND_READ);
    }

    @Test
    void check_whenTheKeyOutlivesEveryOpenHold_findsNothing() {
        List<Op> history = List.of(
                read("r1", 0, 10, 1, 30 * DAY_MS),
                look(11, 12, 30 * DAY_MS - 5),
                read("r2", 20, 30, 2, 1030),
                look(31, 32, 30 * DAY_MS - 20),
                look(40, 41, -1)); // no expiry at all
        assertThat(HoldersExpiryChecker.check(history)).isEmpty();
    }

    @Test
    void check_whenALaterAcquireLowersTheKeyBelowALongerHold_reportsIt() {
        List<Op> history = List.of(
                read("r1", 0, 10, 1, 30 * DAY_MS),
                read("r2", 20, 30, 2, 1030),
                look(31, 32, 7 * DAY_MS)); // the 30 s reader cut the hash to the 7-day default
        assertThat(HoldersExpiryChecker.check(history)).singleElement().satisfies(v -> {
            assertThat(v.checker()).isEqualTo(Violation.Checker.HOLDERS_EXPIRY);
            assertThat(v.message()).contains("7.00 days", "read hold of r1 token 1", "30.00 days left");
        });
    }

    @Test
    void check_whenTheKeyIsGoneWhileAHoldIsOpen_reportsIt() {
        List<Op> history = List.of(read("r1", 0, 10, 1, 5000), look(20, 21, -2));
        assertThat(HoldersExpiryChecker.check(history)).hasSize(1);
    }

    @Test
    void check_judgesOnlyHoldsOpenThroughoutTheLook() {
        List<Op> history = List.of(
                read("r1", 0, 10, 1, 30 * DAY_MS),
                release("r1", 20, 22, 1), // released before the look: its entry may be gone
                read("r2", 25, 40, 2, 9000), // its reply came after the look began
                look(30, 31, -2),
                release("r2", 45, 46, 2),
                read("r3", 50, 60, 3, 30 * DAY_MS),
                release("r3", 70, 75, 3), // released while the look ran: its entry may be gone
                look(72, 73, -2));
        assertThat(HoldersExpiryChecker.check(history)).isEmpty();
    }

    @Test
    void check_allowsThePttlsResolution() {
        List<Op> history = List.of(read("r1", 0, 10, 1, 1000), look(20, 21, 979)); // 1 ms short: within resolution
        assertThat(HoldersExpiryChecker.check(history)).isEmpty();
        List<Op> short2 = List.of(read("r1", 0, 10, 1, 1000), look(20, 21, 978));
        assertThat(HoldersExpiryChecker.check(short2)).hasSize(1);
    }
}
