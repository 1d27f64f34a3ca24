package dev.dlock.internal.lease;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The holds that threads of one client have through the {@code Lock} interface, keyed by lock name,
 * role (the mutex's, or the read or write view of a read-write lock) and thread: a thread whose hold was lost finds it again at its unlock (and gets the loss), even
 * when another thread of this client has taken the lock since. Thread-safe; a hold's count is only
 * touched by its thread.
 */
public final class ThreadHolds {
    private final ConcurrentHashMap<Key, Hold> holds = new ConcurrentHashMap<>();

    /** The mutex's role. */
    static final String MUTEX = "";

    /** The calling thread's hold on a lock name, or null. */
    public Hold ofCurrentThread(String name) {
        return ofCurrentThread(MUTEX, name);
    }

    /** The calling thread's hold on a lock name in a role, or null. */
    public Hold ofCurrentThread(String role, String name) {
        return holds.get(new Key(role, name, Thread.currentThread()));
    }

    /** Records the calling thread's first hold on a lock name. */
    public void add(String name, RedisLease lease) {
        add(MUTEX, name, lease);
    }

    /** Records the calling thread's first hold on a lock name in a role. */
    public void add(String role, String name, RedisLease lease) {
        Key key = new Key(role, name, Thread.currentThread());
        holds.put(key, new Hold(key, lease));
    }

    public void remove(Hold hold) {
        holds.remove(hold.key, hold);
    }

    public void clear() {
        holds.clear();
    }

    private record Key(String role, String name, Thread thread) {}

    /** The hold of one thread on one lock name. */
    public static final class Hold {
        private final Key key;
        public final RedisLease lease;
        public int count = 1; // only touched by the holding thread

        private Hold(Key key, RedisLease lease) {
            this.key = key;
            this.lease = lease;
        }
    }
}
