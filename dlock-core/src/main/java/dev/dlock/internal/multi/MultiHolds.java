package dev.dlock.internal.multi;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds that threads of one client have on multi-locks through the {@code Lock} interface, keyed
 * by the multi-lock's names (sorted, distinct) and thread, so that every view of the same names agrees
 * ({@code multiLock("a", "b")} and {@code multiLock("b", "a")} are one lock). Thread-safe; a hold's
 * count is only touched by its thread.
 */
public final class MultiHolds {
    private final ConcurrentHashMap<Key, Hold> holds = new ConcurrentHashMap<>();

    /** The calling thread's hold on these names, or null. */
    Hold ofCurrentThread(List<String> names) {
        return holds.get(new Key(names, Thread.currentThread()));
    }

    /** Records the calling thread's first hold on these names. */
    void add(List<String> names, MultiLease lease) {
        Key key = new Key(names, Thread.currentThread());
        holds.put(key, new Hold(key, lease));
    }

    void remove(Hold hold) {
        holds.remove(hold.key, hold);
    }

    /** At the client's close, which released every hold: a later unlock finds none. */
    public void clear() {
        holds.clear();
    }

    private record Key(List<String> names, Thread thread) {}

    /** The hold of one thread on one multi-lock. */
    static final class Hold {
        private final Key key;
        final MultiLease lease;
        int count = 1; // only touched by the holding thread

        private Hold(Key key, MultiLease lease) {
            this.key = key;
            this.lease = lease;
        }
    }
}
