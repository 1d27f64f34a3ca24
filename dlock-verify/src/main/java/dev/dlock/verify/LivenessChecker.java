package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 5: after each fault the lock is taken again within TTL + 1 s of the fault's reference time (its heal, or
 * for a killed or paused holder the moment it stopped), and no call outlives its own timeout by more than 1 s.
 */
final class LivenessChecker {

    static final long SLACK_NANOS = 1_000_000_000L;

    private LivenessChecker() {}

    static List<Violation> check(List<Op> history, long ttlNanos) {
        List<Violation> violations = new ArrayList<>();
        for (Op fault : history) {
            if (!fault.is(Op.FAULT) || fault.complete() == Long.MAX_VALUE) {
                continue;
            }
            long from = fault.deadline();
            long limit = from + ttlNanos + SLACK_NANOS;
            long first = Long.MAX_VALUE;
            for (Op op : history) {
                if (op.is(Op.ACQUIRE) && op.ok() && op.complete() > from) {
                    first = Math.min(first, op.complete());
                }
            }
            if (first > limit) {
                violations.add(new Violation(
                        Checker.LIVENESS,
                        String.format(
                                "after fault %s the lock was next taken %s (limit TTL + 1 s = %.0f ms)",
                                fault.detail(),
                                first == Long.MAX_VALUE
                                        ? "never"
                                        : String.format("after %.0f ms", (first - from) / 1e6),
                                (ttlNanos + SLACK_NANOS) / 1e6)));
            }
        }
        for (Op op : history) {
            if (op.is(Op.FAULT) || op.timeoutNanos() <= 0 || op.complete() == Long.MAX_VALUE) {
                continue;
            }
            long took = op.complete() - op.invoke();
            if (took > op.timeoutNanos() + SLACK_NANOS) {
                violations.add(new Violation(
                        Checker.LIVENESS,
                        String.format(
                                "%s %s (seq %d) took %.0f ms, its timeout is %.0f ms (+1 s allowed); outcome %s %s",
                                op.client(),
                                op.type(),
                                op.seq(),
                                took / 1e6,
                                op.timeoutNanos() / 1e6,
                                op.outcome(),
                                op.detail())));
            }
        }
        return violations;
    }
}
