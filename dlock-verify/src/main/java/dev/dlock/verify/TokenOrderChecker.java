package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checker 4: fencing tokens increase in real-time order: if acquire A returned before acquire B was invoked, A's token
 * is lower than B's. Concurrent acquires may be ordered either way.
 */
final class TokenOrderChecker {

    private TokenOrderChecker() {}

    static List<Violation> check(List<Op> history) {
        List<Op> acquires =
                history.stream().filter(op -> op.is(Op.ACQUIRE) && op.ok()).toList();
        List<Op> byComplete = new ArrayList<>(acquires);
        byComplete.sort(Comparator.comparingLong(Op::complete));
        List<Op> byInvoke = new ArrayList<>(acquires);
        byInvoke.sort(Comparator.comparingLong(Op::invoke));
        List<Violation> violations = new ArrayList<>();
        Op highest = null; // highest token among acquires completed before the current one's invocation
        int next = 0;
        for (Op later : byInvoke) {
            while (next < byComplete.size() && byComplete.get(next).complete() < later.invoke()) {
                Op earlier = byComplete.get(next++);
                if (highest == null || earlier.token() > highest.token()) {
                    highest = earlier;
                }
            }
            if (highest != null && highest.token() >= later.token()) {
                violations.add(new Violation(
                        Checker.TOKEN_ORDER,
                        String.format(
                                "%s got token %d at %d, after %s had got token %d at %d",
                                later.client(),
                                later.token(),
                                later.complete(),
                                highest.client(),
                                highest.token(),
                                highest.complete())));
            }
        }
        return violations;
    }

    /**
     * Across lock names: one client never gets the same token for two names. Tokens are counted per name, so equal
     * tokens of two names would need two grants in the same microsecond; one client holding one token under two
     * names is a grant of one lock that completed a wait for the other.
     */
    static List<Violation> checkAcrossNames(List<Op> history) {
        Map<String, Op> seen = new HashMap<>();
        List<Violation> violations = new ArrayList<>();
        for (Op op : history) {
            if (!op.is(Op.ACQUIRE) || !op.ok()) {
                continue;
            }
            Op earlier = seen.putIfAbsent(op.client() + "/" + op.pid() + "/" + op.token(), op);
            if (earlier != null && !earlier.lock().equals(op.lock())) {
                violations.add(new Violation(
                        Checker.TOKEN_ORDER,
                        String.format(
                                "%s got token %d for %s at %d, the token it had got for %s at %d",
                                op.client(),
                                op.token(),
                                op.lock(),
                                op.complete(),
                                earlier.lock(),
                                earlier.complete())));
            }
        }
        return violations;
    }
}
