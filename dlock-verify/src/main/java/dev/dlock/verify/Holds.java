package dev.dlock.verify;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Groups a history's operations into holds: one per successful acquire, with the operations that carry its token.
 */
final class Holds {

    /**
     * One hold of the lock.
     *
     * @param acquire the successful acquire
     * @param start when the acquire's reply arrived: the hold is valid from here
     * @param deadline the latest validity deadline the holder observed
     * @param end where the interval is cut: the release's invocation, the lease reporting its loss, or the deadline,
     *     whichever is earliest
     * @param useEnd until when the holder may use the resource: the release's invocation or the deadline (not the loss:
     *     the holder learns of it only at its next look, which may come after a use it had already begun)
     * @param uses the reads and writes made under this hold
     */
    record Hold(Op acquire, long start, long deadline, long end, long useEnd, List<Op> uses) {
        String client() {
            return acquire.client();
        }

        long token() {
            return acquire.token();
        }
    }

    private Holds() {}

    static List<Hold> of(List<Op> history) {
        Map<String, Op> acquires = new HashMap<>();
        Map<String, Long> deadlines = new HashMap<>();
        Map<String, Long> releases = new HashMap<>();
        Map<String, Long> losses = new HashMap<>();
        Map<String, List<Op>> uses = new HashMap<>();
        for (Op op : history) {
            if (op.is(Op.ACQUIRE) && op.ok()) {
                acquires.put(op.holdKey(), op);
                deadlines.merge(op.holdKey(), op.deadline(), Math::max);
            }
        }
        for (Op op : history) {
            if (!acquires.containsKey(op.holdKey()) || op.is(Op.ACQUIRE)) {
                continue;
            }
            if (op.deadline() != 0) {
                deadlines.merge(op.holdKey(), op.deadline(), Math::max);
            }
            if (op.is(Op.RELEASE)) {
                releases.merge(op.holdKey(), op.invoke(), Math::min);
            } else if (op.is(Op.LOST)) {
                losses.merge(op.holdKey(), op.invoke(), Math::min);
            } else if (op.is(Op.READ) || op.is(Op.WRITE)) {
                uses.computeIfAbsent(op.holdKey(), k -> new ArrayList<>()).add(op);
            }
        }
        List<Hold> holds = new ArrayList<>();
        for (Map.Entry<String, Op> e : acquires.entrySet()) {
            String key = e.getKey();
            long deadline = deadlines.get(key);
            long useEnd = Math.min(deadline, releases.getOrDefault(key, Long.MAX_VALUE));
            long end = Math.min(useEnd, losses.getOrDefault(key, Long.MAX_VALUE));
            holds.add(new Hold(
                    e.getValue(), e.getValue().complete(), deadline, end, useEnd, uses.getOrDefault(key, List.of())));
        }
        holds.sort((a, b) -> Long.compare(a.start(), b.start()));
        return holds;
    }
}
