package dev.dlock.resp;

import java.util.ArrayDeque;
import java.util.List;

/**
 * Finds overdue commands in a queue. Every command gets the same timeout and is queued when issued,
 * so deadlines grow from head to tail and a scan stops at the first command still in time; when the
 * head is in time (the usual case) it costs one peek and allocates nothing.
 */
final class Timeouts {
    private Timeouts() {}

    /** Adds the overdue, not yet completed commands to {@code overdue}, leaving them queued. */
    static void collect(ArrayDeque<? extends Pending<?>> queue, long now, List<Pending<?>> overdue) {
        Pending<?> head = queue.peekFirst();
        if (head == null || !head.isOverdue(now)) {
            return;
        }
        for (Pending<?> p : queue) {
            if (!p.isOverdue(now)) {
                return;
            }
            if (!p.isDone()) {
                overdue.add(p);
            }
        }
    }

    /** Takes the overdue commands out of {@code queue}, adding those not yet completed to {@code overdue}. */
    static void remove(ArrayDeque<? extends Pending<?>> queue, long now, List<Pending<?>> overdue) {
        for (Pending<?> head = queue.peekFirst(); head != null && head.isOverdue(now); head = queue.peekFirst()) {
            queue.pollFirst();
            if (!head.isDone()) {
                overdue.add(head);
            }
        }
    }
}
