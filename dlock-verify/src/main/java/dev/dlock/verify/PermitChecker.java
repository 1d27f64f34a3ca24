package dev.dlock.verify;

import dev.dlock.verify.Holds.Hold;
import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checker 7: no more than {@code capacity} holds of a semaphore overlap, each hold's interval as checker 1 draws it
 * (from its acquire's reply to its release's invocation or its lease's report of loss, cut at its deadline). Every hold
 * takes one permit. A sweep over the intervals' ends: an end at the same instant as a start comes first (intervals are
 * half-open), and each time the count of open holds climbs past the capacity it is reported once, naming the holds
 * open then.
 */
final class PermitChecker {

    private PermitChecker() {}

    static List<Violation> check(List<Op> history, int capacity) {
        List<Hold> holds = Holds.of(history).stream()
                .filter(h -> h.end() > h.start()) // already invalid when the reply arrived: never a holder
                .toList();
        record Edge(long at, boolean start, Hold hold) {}
        List<Edge> edges = new ArrayList<>(holds.size() * 2);
        for (Hold hold : holds) {
            edges.add(new Edge(hold.start(), true, hold));
            edges.add(new Edge(hold.end(), false, hold));
        }
        edges.sort(Comparator.comparingLong(Edge::at).thenComparing(Edge::start)); // ends (false) before starts
        List<Violation> violations = new ArrayList<>();
        List<Hold> open = new ArrayList<>();
        for (Edge edge : edges) {
            if (!edge.start()) {
                open.remove(edge.hold());
                continue;
            }
            open.add(edge.hold());
            if (open.size() == capacity + 1) {
                StringBuilder who = new StringBuilder();
                for (Hold hold : open) {
                    who.append(who.length() == 0 ? "" : ", ")
                            .append(String.format(
                                    "%s token %d [%d, %d)", hold.client(), hold.token(), hold.start(), hold.end()));
                }
                violations.add(new Violation(
                        Checker.PERMITS,
                        String.format(
                                "more than %d holders at %d: %d holds overlap: %s",
                                capacity, edge.at(), open.size(), who)));
            }
        }
        return violations;
    }
}
