package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 6: every acquire returns a hold with at least half of its lease time left, measured on the client's
 * monotonic clock right after the call returned: the recorded {@code deadline - complete} of a successful acquire is
 * at least {@code leaseNanos / 2} (less a tenth of the lease for the worker's own wake-up, {@link #minimumLeft}), and a {@code lock()} or {@code tryLock} that returned {@code true} was followed by
 * {@code isHeldByCurrentThread() == true} (recorded as {@link #NOT_HELD} otherwise). A hand-off of an already expired
 * or nearly expired hold shows up here even when no other holder happened to enter meanwhile.
 */
final class FreshHoldChecker {

    /** The detail of a thread acquire after which {@code isHeldByCurrentThread()} was already false. */
    static final String NOT_HELD = "not held right after it returned";

    private FreshHoldChecker() {}

    /**
     * Half the lease, less a tenth of it: the library checks the half when the acquire completes, the worker looks
     * a thread wake-up later, which a loaded host can stretch to tens of milliseconds. An expired or nearly expired
     * hand-off is far below this.
     */
    static long minimumLeft(long leaseNanos) {
        return leaseNanos / 2 - leaseNanos / 10;
    }

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
            } else if (op.leaseNanos() > 0 && op.deadline() - op.complete() < minimumLeft(op.leaseNanos())) {
                violations.add(new Violation(
                        Checker.FRESH_HOLD,
                        String.format(
                                "%s acquire seq %d of %s (token %d) returned with %.1f ms of its %.0f ms lease left"
                                        + " (less than half, and than 40%%)",
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
