package dev.dlock.internal.mutex;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The turns waiting at one {@link NameRelay}, oldest first. Not thread-safe: guarded by the gate's
 * monitor. The deque is made when the first turn has to wait, so an uncontended name allocates none.
 */
final class PendingAcquires {
    private ArrayDeque<PendingAcquire> turns;

    void add(PendingAcquire turn) {
        if (turns == null) {
            turns = new ArrayDeque<>();
        }
        turns.add(turn);
    }

    /** The oldest turn not given up (given-up turns ahead of it are dropped), or null. */
    PendingAcquire head() {
        while (turns != null && !turns.isEmpty()) {
            PendingAcquire t = turns.peek();
            if (!t.cancelled) {
                return t;
            }
            turns.poll();
        }
        return null;
    }

    /** Removes the turn {@link #head()} returned. */
    void dropHead() {
        turns.poll();
    }

    boolean remove(PendingAcquire turn) {
        return turns != null && turns.remove(turn);
    }

    boolean isEmpty() {
        return turns == null || turns.isEmpty();
    }

    /** Empties the line, returning who was in it. */
    List<PendingAcquire> clear() {
        List<PendingAcquire> all = turns == null ? List.of() : new ArrayList<>(turns);
        if (turns != null) {
            turns.clear();
        }
        return all;
    }
}
