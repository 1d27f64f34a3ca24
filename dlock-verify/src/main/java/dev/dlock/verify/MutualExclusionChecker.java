package dev.dlock.verify;

import dev.dlock.verify.Holds.Hold;
import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 1: no two holders' intervals overlap, each interval running from its acquire's reply to the release's
 * invocation or the lease's report of its loss, and cut at the holder's own validity deadline; and no holder reads or
 * writes the resource after its deadline or release (a holder that ignores its deadline is caught here even when the
 * fence saves the resource).
 */
final class MutualExclusionChecker {

    private MutualExclusionChecker() {}

    static List<Violation> check(List<Op> history) {
        return check(history, true);
    }

    /**
     * As {@link #check(List)}; {@code overlaps} false judges the uses alone, for a semaphore, whose holds may overlap
     * up to its capacity ({@link PermitChecker}).
     */
    static List<Violation> check(List<Op> history, boolean overlaps) {
        List<Hold> holds = Holds.of(history);
        List<Violation> violations = new ArrayList<>();
        Hold latest = null; // the hold whose interval reaches furthest so far
        for (Hold hold : holds) {
            if (hold.end() <= hold.start()) {
                continue; // already invalid when the reply arrived: never a holder
            }
            if (overlaps && latest != null && hold.start() < latest.end()) {
                violations.add(new Violation(
                        Checker.MUTUAL_EXCLUSION,
                        String.format(
                                "overlap: %s token %d held from %d until %d, %s token %d from %d (%.1f ms overlap)",
                                latest.client(),
                                latest.token(),
                                latest.start(),
                                latest.end(),
                                hold.client(),
                                hold.token(),
                                hold.start(),
                                (Math.min(latest.end(), hold.end()) - hold.start()) / 1e6)));
            }
            if (latest == null || hold.end() > latest.end()) {
                latest = hold;
            }
            for (Op use : hold.uses()) {
                if (use.invoke() < hold.start() || use.invoke() >= hold.useEnd()) {
                    violations.add(new Violation(
                            Checker.MUTUAL_EXCLUSION,
                            String.format(
                                    "%s %s %s with token %d at %d, outside its hold [%d, %d) (%.1f ms past)",
                                    use.client(),
                                    use.type(),
                                    use.element().isEmpty() ? "" : use.element(),
                                    use.token(),
                                    use.invoke(),
                                    hold.start(),
                                    hold.useEnd(),
                                    (use.invoke() - hold.useEnd()) / 1e6)));
                }
            }
        }
        return violations;
    }
}
