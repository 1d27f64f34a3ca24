package dev.dlock.verify;

import dev.dlock.verify.Holds.Hold;
import dev.dlock.verify.Violation.Checker;
import java.util.ArrayList;
import java.util.List;

/**
 * Checker 5, the waiting half (reported as liveness): a lock nobody holds is not left idle while somebody waits for it,
 * and a long wait is not refused while no fault is near.
 *
 * <ul>
 *   <li><b>Idle while waited for.</b> No stretch longer than {@link #idleBoundNanos TTL/2 + 250 ms} (plus twice the
 *       slowest fenced read or write of any client within a second of it: a stalled host slows every client's round
 *       trips alike) in which some acquire of the lock is waiting and no hold of it is recorded. A hold is the interval of checker 1; an acquire
 *       whose outcome is unknown through a timeout or lost connection may have taken the lock unseen and counts as a
 *       hold from its invocation until its lease time after its end (an error reply of the server does not: the
 *       script did not run, or the client must clean up after it). This catches a lock granted to a waiter that has
 *       gone, or to its own former owner: it sits for a lease time while the others wait.
 *   <li><b>Refused wait.</b> No acquire that waited at least 1.5 TTL (the workload's long waits are 2 TTL, its holds
 *       at most TTL/10) ends busy.
 *   <li><b>Error away from faults.</b> No acquire or release fails (outcome unknown: an error reply, a timeout) while
 *       no fault is near: a fault's effects must end with it, not linger in the client.
 * </ul>
 *
 * A fault excuses both near it: a disturbing fault (a holder, the server or the network stopped) from its start to
 * TTL + 1 s after its reference time, the bound checker 5 already holds it to; a transient one (connections killed,
 * scripts flushed, memory full, SUBSCRIBE refused) only from its start to its heal, plus {@code idleBound} for a refused
 * wait or an error. An idle stretch is measured outside those windows, so one that begins during a transient fault counts from the
 * heal.
 */
final class WaitChecker {

    private WaitChecker() {}

    static long idleBoundNanos(long ttlNanos) {
        return ttlNanos / 2 + 250_000_000L;
    }

    static List<Violation> check(List<Op> history, long ttlNanos) {
        List<long[]> excused = new ArrayList<>();
        List<long[]> transientHeals = new ArrayList<>();
        for (Op op : history) {
            if (!op.is(Op.FAULT) || op.complete() == Long.MAX_VALUE) {
                continue;
            }
            if (Fault.fromLabel(op.detail()).shortLived) {
                excused.add(new long[] {op.invoke(), op.complete()});
                transientHeals.add(new long[] {op.invoke(), op.complete() + idleBoundNanos(ttlNanos)});
            } else {
                long until = op.deadline() + ttlNanos + LivenessChecker.SLACK_NANOS;
                excused.add(new long[] {op.invoke(), until});
                transientHeals.add(new long[] {op.invoke(), until});
            }
        }
        List<Violation> violations = new ArrayList<>();
        idle(history, ttlNanos, excused, violations);
        for (Op op : history) {
            if (op.is(Op.ACQUIRE)
                    && Op.FAIL.equals(op.outcome())
                    && "busy".equals(op.detail())
                    && op.complete() - op.invoke() >= ttlNanos * 3 / 2
                    && !intersects(transientHeals, op.invoke(), op.complete())) {
                violations.add(new Violation(
                        Checker.LIVENESS,
                        String.format(
                                "%s acquire seq %d of %s waited %.0f ms and was refused (busy), no fault near",
                                op.client(), op.seq(), op.lock(), (op.complete() - op.invoke()) / 1e6)));
            }
        }
        for (Op op : history) {
            if ((op.is(Op.ACQUIRE) || op.is(Op.RELEASE))
                    && Op.UNKNOWN.equals(op.outcome())
                    && op.complete() != Long.MAX_VALUE
                    && !intersects(transientHeals, op.invoke(), op.complete())) {
                violations.add(new Violation(
                        Checker.LIVENESS,
                        String.format(
                                "%s %s seq %d of %s failed with no fault near: %s",
                                op.client(), op.type(), op.seq(), op.lock(), op.detail())));
            }
        }
        return violations;
    }

    private static void idle(List<Op> history, long ttlNanos, List<long[]> excused, List<Violation> violations) {
        List<long[]> held = new ArrayList<>();
        for (Hold hold : Holds.of(history)) {
            held.add(new long[] {hold.start(), Math.max(hold.start(), hold.end())});
        }
        List<long[]> waiting = new ArrayList<>();
        for (Op op : history) {
            if (!op.is(Op.ACQUIRE) || op.complete() == Long.MAX_VALUE) {
                continue;
            }
            waiting.add(new long[] {op.invoke(), op.complete()});
            if (Op.UNKNOWN.equals(op.outcome()) && !op.detail().startsWith("LockServerException")) {
                held.add(new long[] {op.invoke(), op.complete() + op.leaseNanos()});
            }
        }
        List<long[]> idle = subtract(merge(waiting), merge(held));
        idle = subtract(idle, merge(excused));
        for (long[] stretch : idle) {
            long bound = idleBoundNanos(ttlNanos) + 2 * slowestRoundTrip(history, stretch);
            if (stretch[1] - stretch[0] > bound) {
                violations.add(new Violation(
                        Checker.LIVENESS,
                        String.format(
                                "%s: nobody held the lock for %.0f ms from %d while acquires waited (bound %.0f ms)",
                                lockOf(history), (stretch[1] - stretch[0]) / 1e6, stretch[0], bound / 1e6)));
            }
        }
    }

    /**
     * The longest single round trip (a fenced read or write) that any client made within a second of {@code stretch}:
     * a host that stalls its client processes stretches every wait by as much, and a waiter needs at least one round
     * trip after the lock is free. On a quiet host this is a few milliseconds.
     */
    static long slowestRoundTrip(List<Op> history, long[] stretch) {
        long slowest = 0;
        for (Op op : history) {
            if ((op.is(Op.READ) || op.is(Op.WRITE))
                    && op.complete() != Long.MAX_VALUE
                    && op.complete() > stretch[0] - 1_000_000_000L
                    && op.invoke() < stretch[1] + 1_000_000_000L) {
                slowest = Math.max(slowest, op.complete() - op.invoke());
            }
        }
        return slowest;
    }

    private static String lockOf(List<Op> history) {
        return history.stream()
                .filter(op -> op.is(Op.ACQUIRE))
                .map(Op::lock)
                .findFirst()
                .orElse("?");
    }

    private static boolean intersects(List<long[]> windows, long from, long to) {
        return windows.stream().anyMatch(w -> w[0] < to && from < w[1]);
    }

    /** Sorted, disjoint union of the intervals. */
    static List<long[]> merge(List<long[]> intervals) {
        List<long[]> sorted = new ArrayList<>(intervals);
        sorted.sort((a, b) -> Long.compare(a[0], b[0]));
        List<long[]> merged = new ArrayList<>();
        for (long[] next : sorted) {
            if (next[1] <= next[0]) {
                continue;
            }
            long[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && next[0] <= last[1]) {
                last[1] = Math.max(last[1], next[1]);
            } else {
                merged.add(new long[] {next[0], next[1]});
            }
        }
        return merged;
    }

    /** The parts of the sorted disjoint intervals {@code from} that the sorted disjoint {@code minus} do not cover. */
    static List<long[]> subtract(List<long[]> from, List<long[]> minus) {
        List<long[]> out = new ArrayList<>();
        for (long[] piece : from) {
            long start = piece[0];
            for (long[] cut : minus) {
                if (cut[1] <= start || cut[0] >= piece[1]) {
                    continue;
                }
                if (cut[0] > start) {
                    out.add(new long[] {start, cut[0]});
                }
                start = Math.max(start, cut[1]);
            }
            if (start < piece[1]) {
                out.add(new long[] {start, piece[1]});
            }
        }
        return out;
    }
}
