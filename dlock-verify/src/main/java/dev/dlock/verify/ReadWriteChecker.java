package dev.dlock.verify;

import dev.dlock.verify.Holds.Hold;
import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 8: on a read-write lock no write hold overlaps any other hold, read or write, while read holds may overlap each
 * other. Each hold's interval is drawn as checker 1 draws it (from its acquire's reply to its release's invocation or
 * its lease's report of loss, cut at its deadline; half-open; a hold already invalid when its reply arrived is no
 * holder), and its kind is the one its acquire recorded. Every overlapping pair with a writer in it is reported once.
 * {@link #peakReaders} tells how many read holds overlapped at most, so that a run whose readers never overlapped,
 * which would not show that read holds may share, is visible in the report.
 */
final class ReadWriteChecker {

    private ReadWriteChecker() {}

    static List<Violation> check(List<Op> history) {
        List<Violation> violations = new ArrayList<>();
        sweep(history, violations);
        return violations;
    }

    /** The most read holds that were open at one instant (0 when there was none). */
    static int peakReaders(List<Op> history) {
        return sweep(history, new ArrayList<>());
    }

    /** One line per lock name for the report: how many of its read holds overlapped at most. */
    static List<String> peakNotes(List<String> lockNames, List<Op> ops) {
        return lockNames.stream()
                .map(name -> "at most "
                        + peakReaders(ops.stream()
                                .filter(op -> op.is(Op.FAULT) || name.equals(op.lock()))
                                .toList())
                        + " read holds of " + name + " overlapped")
                .toList();
    }

    /** Walks the holds in start order keeping those still open; reports writer overlaps, returns the reader peak. */
    private static int sweep(List<Op> history, List<Violation> violations) {
        List<Hold> holds = Holds.of(history).stream() // sorted by start
                .filter(h -> h.end() > h.start()) // already invalid when the reply arrived: never a holder
                .filter(h -> h.acquire().isRead() || h.acquire().isWrite())
                .toList();
        List<Hold> open = new ArrayList<>();
        int peak = 0;
        for (Hold hold : holds) {
            open.removeIf(h -> h.end() <= hold.start());
            for (Hold other : open) {
                if (other.acquire().isWrite() || hold.acquire().isWrite()) {
                    violations.add(new Violation(
                            Checker.READ_WRITE,
                            String.format(
                                    "writer beside another holder: %s %s token %d held [%d, %d), %s %s token %d from"
                                            + " %d (%.1f ms overlap)",
                                    other.client(),
                                    other.acquire().kind(),
                                    other.token(),
                                    other.start(),
                                    other.end(),
                                    hold.client(),
                                    hold.acquire().kind(),
                                    hold.token(),
                                    hold.start(),
                                    (Math.min(other.end(), hold.end()) - hold.start()) / 1e6)));
                }
            }
            open.add(hold);
            peak = Math.max(
                    peak, (int) open.stream().filter(h -> h.acquire().isRead()).count());
        }
        return peak;
    }
}
