package dev.dlock.internal.util;

import dev.dlock.Lease;
import dev.dlock.LockLostException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds that threads of one client have through the {@code Lock} interface, for every kind of
 * lock ({@link ThreadLocking} counts them): keyed by the role of the lock (the mutex's, the read or the
 * write view of a read-write lock, a multi-lock's), its identity (a lock name, or a multi-lock's sorted
 * names) and the thread. A thread whose hold was lost finds it again at its unlock (and gets the
 * loss), even when another thread of this client has taken the lock since. Thread-safe; a hold's count
 * is only touched by its thread.
 */
public final class ThreadHolds {
    /** The mutex's role, and a Redlock lock's. */
    public static final String MUTEX = "";

    /** A multi-lock's role; its identity is the list of its sorted, distinct names. */
    public static final String MULTI = "multi";

    private final ConcurrentHashMap<Key, Hold> holds = new ConcurrentHashMap<>();

    /** A lease a thread can hold through {@code lock()} and take again while it holds it. */
    public interface Reentrant extends Lease {
        /**
         * For a thread that takes the lock again while it holds it: returns if the hold may be
         * re-entered, and otherwise throws its loss.
         *
         * @throws LockLostException if the hold is lost (or, where the kind checks it, cannot be shown
         *     valid for at least half its lease)
         */
        void confirmForReentry();
    }

    /** The calling thread's hold on a lock in a role, or null. */
    public Hold ofCurrentThread(String role, Object lock) {
        return holds.get(new Key(role, lock, Thread.currentThread()));
    }

    /** Records the calling thread's first hold on a lock in a role. */
    public void add(String role, Object lock, Reentrant lease) {
        Key key = new Key(role, lock, Thread.currentThread());
        holds.put(key, new Hold(key, lease));
    }

    public void remove(Hold hold) {
        holds.remove(hold.key, hold);
    }

    /** At the client's close, which released every hold: a later unlock finds none. */
    public void clear() {
        holds.clear();
    }

    private record Key(String role, Object lock, Thread thread) {}

    /** The hold of one thread on one lock. */
    public static final class Hold {
        private final Key key;
        public final Reentrant lease;
        public int count = 1; // only touched by the holding thread

        private Hold(Key key, Reentrant lease) {
            this.key = key;
            this.lease = lease;
        }
    }
}
