package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checker 2: the fenced resource accepted only tokens not lower than the last it accepted (in server order), refused
 * only tokens lower than its fence, and recorded every refusal a client was told about (and told about every one it
 * recorded).
 */
final class FenceChecker {

    static final String REJECTED = "rejected by fence";

    private FenceChecker() {}

    static List<Violation> check(List<Op> history, FencedResource.Snapshot snapshot) {
        List<Violation> violations = new ArrayList<>();
        long highest = Long.MIN_VALUE;
        List<Long> accepted = snapshot.acceptedTokens();
        for (int i = 0; i < accepted.size(); i++) {
            long token = accepted.get(i);
            if (token < highest) {
                violations.add(new Violation(
                        Checker.FENCE,
                        "accepted token " + token + " (operation " + (i + 1) + ") after accepting " + highest));
            }
            highest = Math.max(highest, token);
        }
        Map<String, Op> fencedOps = new HashMap<>();
        for (Op op : history) {
            if ((op.is(Op.READ) || op.is(Op.WRITE)) && !op.element().isEmpty()) {
                fencedOps.put(op.element(), op);
            }
        }
        Set<String> recorded = new HashSet<>();
        for (String entry : snapshot.rejections()) {
            String[] parts = entry.split(":", 4);
            long token = Long.parseLong(parts[1]);
            long fence = Long.parseLong(parts[2]);
            String label = parts[3];
            recorded.add(label);
            if (token >= fence) {
                violations.add(new Violation(
                        Checker.FENCE, "refused " + label + " with token " + token + " not lower than fence " + fence));
            }
            Op op = fencedOps.get(label);
            if (op == null || op.ok()) {
                violations.add(new Violation(
                        Checker.FENCE,
                        "refusal of " + label + " recorded by the resource, but the client "
                                + (op == null ? "never made that call" : "was told it was accepted")));
            }
        }
        for (Op op : fencedOps.values()) {
            if (REJECTED.equals(op.detail()) && !recorded.contains(op.element())) {
                violations.add(new Violation(
                        Checker.FENCE,
                        op.client() + " was refused " + op.type() + " " + op.element() + " with token " + op.token()
                                + ", but the resource did not record it"));
            }
        }
        return violations;
    }
}
