package dev.dlock.verify;

import dev.dlock.verify.Holds.Hold;
import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 9: a shared lock's holders key outlives every hold in it. A read hold of a read-write lock (or a permit) is
 * an entry of one hash, so when the hash expires every entry goes with it, and a writer could be let in while a reader
 * still holds: the key's time to live must never be below the longest remaining lease among its holders, fixed
 * leases of days included. Each {@link Op#EXPIRY} look records the earliest instant the key can expire ({@code
 * invoke + PTTL}); every hold open from before the look's invocation to after its completion (drawn as checker 1
 * draws it, so a concurrent release does not count) must have its deadline at or before that instant, within 1 ms (the
 * PTTL's resolution). The hold's recorded deadline is the client's, never later than the server's expiry of its
 * entry.
 */
final class HoldersExpiryChecker {

    private static final long RESOLUTION_NANOS = 1_000_000L;

    private HoldersExpiryChecker() {}

    static List<Violation> check(List<Op> history) {
        List<Op> looks =
                history.stream().filter(op -> op.is(Op.EXPIRY) && op.ok()).toList();
        if (looks.isEmpty()) {
            return List.of();
        }
        List<Hold> holds = Holds.of(history);
        List<Violation> violations = new ArrayList<>();
        for (Op look : looks) {
            for (Hold hold : holds) {
                boolean openThroughout = hold.start() <= look.invoke() && hold.end() >= look.complete();
                boolean expires = look.deadline() != Long.MAX_VALUE; // PTTL -1: no expiry at all
                if (openThroughout && expires && hold.deadline() - RESOLUTION_NANOS > look.deadline()) {
                    violations.add(new Violation(
                            Checker.HOLDERS_EXPIRY,
                            String.format(
                                    "%s's %s (seq %d) at %d: the key can expire in %s, before the %s hold of %s token"
                                            + " %d (%s left of its %s lease)",
                                    look.client(),
                                    look.detail(),
                                    look.seq(),
                                    look.invoke(),
                                    human(look.deadline() - look.invoke()),
                                    hold.acquire().kind().isEmpty()
                                            ? ""
                                            : hold.acquire().kind(),
                                    hold.client(),
                                    hold.token(),
                                    human(hold.deadline() - look.invoke()),
                                    human(hold.acquire().leaseNanos()))));
                }
            }
        }
        return violations;
    }

    /** A duration for the message: days, hours, seconds or milliseconds. */
    static String human(long nanos) {
        double seconds = nanos / 1e9;
        if (seconds >= 86_400) {
            return String.format("%.2f days", seconds / 86_400);
        }
        if (seconds >= 3_600) {
            return String.format("%.2f h", seconds / 3_600);
        }
        return seconds >= 1 ? String.format("%.3f s", seconds) : String.format("%.1f ms", nanos / 1e6);
    }
}
