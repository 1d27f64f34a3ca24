package dev.dlock.verify;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs every checker on one scenario's history, once per lock name: each name has its own holds, its own fenced
 * resource and its own token sequence; the faults belong to every name. With several names a violation's message
 * starts with the name.
 */
final class Checks {

    private Checks() {}

    /**
     * @param capacity how many holds of one name may overlap: 1 for a mutex (checker 1 judges overlaps), a semaphore's
     *     permits (checker 7 does, checker 1 only the uses)
     * @param readWrite a read-write lock: checker 8 judges the overlaps by each hold's kind, checker 1 only the uses
     */
    static List<Violation> run(
            List<Op> ops,
            Map<String, FencedResource.Snapshot> snapshots,
            long ttlNanos,
            int capacity,
            boolean readWrite) {
        List<Violation> violations = new ArrayList<>();
        for (Map.Entry<String, FencedResource.Snapshot> e : snapshots.entrySet()) {
            String name = e.getKey();
            List<Op> mine = ops.stream()
                    .filter(op -> op.is(Op.FAULT) || op.lock().equals(name))
                    .toList();
            List<Violation> found = new ArrayList<>();
            found.addAll(MutualExclusionChecker.check(mine, capacity == 1 && !readWrite));
            if (capacity > 1) {
                found.addAll(PermitChecker.check(mine, capacity));
            }
            if (readWrite) {
                found.addAll(ReadWriteChecker.check(mine));
            }
            found.addAll(FenceChecker.check(mine, e.getValue()));
            found.addAll(LostUpdateChecker.check(mine, e.getValue().elements()));
            found.addAll(TokenOrderChecker.check(mine));
            found.addAll(WaitChecker.check(mine, ttlNanos));
            found.addAll(FreshHoldChecker.check(mine));
            found.addAll(HoldersExpiryChecker.check(mine));
            for (Violation v : found) {
                violations.add(snapshots.size() == 1 ? v : new Violation(v.checker(), name + ": " + v.message()));
            }
        }
        violations.addAll(TokenOrderChecker.checkAcrossNames(ops));
        // per call and per fault, not per name: a fault must be followed by some acquire of any of the names
        violations.addAll(LivenessChecker.check(ops, ttlNanos));
        return violations;
    }
}
