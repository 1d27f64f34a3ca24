package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 6: every acquire returns a hold with at least half of its lease time left, measured on the client's
 * monotonic clock right after the call returned: the recorded {@code deadline - complete} of a successful acquire is
 * at least {@code leaseNanos / 2}, and a {@code lock()} or {@code tryLock} that returned {@code true} was followed by
 * {@code isHeldByCurrentThread() == true} (recorded as {@link #NOT_HELD} otherwise). A hand-off of an already expired
 * or nearly expired hold shows up here even when no other holder happened to enter meanwhile.
 */
final class FreshHoldChecker {

    /** The detail of a thread acquire after which {@code isHeldByCurrentThread()} was already false. */
    static final String NOT_HELD = "not held right after it returned";

    private FreshHoldChecker() {}

    static List<Violation> check(List<Op> history) {
        List<Violation> violations = new ArrayList<>();
        for (Op op : history) {
            if (!op.is(Op.ACQUIRE) || !op.ok()) {
                continue;
            }
            if (NOT_HELD.equals(op.detail())) {
                violations.add(new Violation(
                        Checker.FRESH_HOLD,
                        String.format(
                                "%s acquire seq %d of %s (token %d) returned at %d, but isHeldByCurrentThread() was"
                                        + " already false",
                                op.client(), op.seq(), op.lock(), op.token(), op.complete())));
            } else if (op.leaseNanos() > 0 && op.deadline() - op.complete() < op.leaseNanos() / 2) {
                violations.add(new Violation(
                        Checker.FRESH_HOLD,
                        String.format(
                                "%s acquire seq %d of %s (token %d) returned with %.1f ms of its %.0f ms lease left"
                                        + " (less than half)",
                                op.client(),
                                op.seq(),
                                op.lock(),
                                op.token(),
                                (op.deadline() - op.complete()) / 1e6,
                                op.leaseNanos() / 1e6)));
            }
        }
        return violations;
    }
}
