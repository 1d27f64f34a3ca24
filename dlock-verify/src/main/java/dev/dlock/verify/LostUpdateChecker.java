package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checker 3: in the final read-modify-write list every successful write appears exactly once, a write of unknown
 * outcome at most once, a refused or failed write never, and nothing appears that no client wrote.
 */
final class LostUpdateChecker {

    private LostUpdateChecker() {}

    static List<Violation> check(List<Op> history, List<String> finalList) {
        Map<String, Integer> counts = new HashMap<>();
        for (String element : finalList) {
            counts.merge(element, 1, Integer::sum);
        }
        List<Violation> violations = new ArrayList<>();
        Map<String, Op> writes = new HashMap<>();
        for (Op op : history) {
            if (!op.is(Op.WRITE)) {
                continue;
            }
            writes.put(op.element(), op);
            int seen = counts.getOrDefault(op.element(), 0);
            if (op.ok() && seen != 1) {
                violations.add(new Violation(
                        Checker.LOST_UPDATE,
                        String.format(
                                "%s by %s (token %d, acknowledged at %d) appears %d times",
                                op.element(), op.client(), op.token(), op.complete(), seen)));
            } else if (Op.UNKNOWN.equals(op.outcome()) && seen > 1) {
                violations.add(new Violation(
                        Checker.LOST_UPDATE, op.element() + " (outcome unknown) appears " + seen + " times"));
            } else if (Op.FAIL.equals(op.outcome()) && seen > 0) {
                violations.add(new Violation(
                        Checker.LOST_UPDATE,
                        op.element() + " was refused (" + op.detail() + ") but appears " + seen + " times"));
            }
        }
        for (String element : counts.keySet()) {
            if (!writes.containsKey(element)) {
                violations.add(new Violation(Checker.LOST_UPDATE, element + " appears but no client wrote it"));
            }
        }
        return violations;
    }
}
