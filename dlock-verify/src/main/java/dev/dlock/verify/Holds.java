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

    /**
     * Builds the holds. A client's operations are taken in its own sequence order and belong to its latest successful
     * acquire with the same lock name and token, so two acquires that returned the same token (a stale grant taken a
     * second time) make two holds; a {@code lost} line belongs to the acquire whose sequence number it carries
     * (negated).
     */
    static List<Hold> of(List<Op> history) {
        Map<String, List<Op>> byClient = new HashMap<>();
        for (Op op : history) {
            if (!op.is(Op.FAULT)) {
                byClient.computeIfAbsent(op.client() + "/" + op.pid(), k -> new ArrayList<>())
                        .add(op);
            }
        }
        List<Hold> holds = new ArrayList<>();
        for (List<Op> ops : byClient.values()) {
            ops.sort((a, b) -> Long.compare(Math.abs(a.seq()), Math.abs(b.seq())));
            Map<String, Builder> current = new HashMap<>();
            Map<Long, Builder> bySeq = new HashMap<>();
            List<Builder> built = new ArrayList<>();
            for (Op op : ops) {
                if (op.is(Op.ACQUIRE)) {
                    if (op.ok()) {
                        Builder b = new Builder(op);
                        current.put(op.holdKey(), b);
                        bySeq.put(op.seq(), b);
                        built.add(b);
                    }
                    continue;
                }
                Builder b = op.is(Op.LOST) && bySeq.containsKey(-op.seq())
                        ? bySeq.get(-op.seq())
                        : current.get(op.holdKey());
                if (b != null) {
                    b.add(op);
                }
            }
            built.forEach(b -> holds.add(b.hold()));
        }
        holds.sort((a, b) -> Long.compare(a.start(), b.start()));
        return holds;
    }

    private static final class Builder {
        private final Op acquire;
        private long deadline;
        private long release = Long.MAX_VALUE;
        private long loss = Long.MAX_VALUE;
        private final List<Op> uses = new ArrayList<>();

        Builder(Op acquire) {
            this.acquire = acquire;
            this.deadline = acquire.deadline();
        }

        void add(Op op) {
            if (op.deadline() != 0) {
                deadline = Math.max(deadline, op.deadline());
            }
            if (op.is(Op.RELEASE)) {
                release = Math.min(release, op.invoke());
            } else if (op.is(Op.LOST)) {
                loss = Math.min(loss, op.invoke());
            } else if (op.is(Op.READ) || op.is(Op.WRITE)) {
                uses.add(op);
            }
        }

        Hold hold() {
            long useEnd = Math.min(deadline, release);
            long end = Math.min(useEnd, loss);
            return new Hold(acquire, acquire.complete(), deadline, end, useEnd, List.copyOf(uses));
        }
    }
}
