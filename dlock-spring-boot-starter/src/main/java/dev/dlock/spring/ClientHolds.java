package dev.dlock.spring;

import dev.dlock.LockListener;
import dev.dlock.LockLostException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the holds the auto-configured client has open, by lock name, from its {@link LockListener}
 * events: those taken through {@code @Locked} and those taken directly through the API alike, for the
 * {@code dlock} endpoint. Only names and counts: the events carry no lease. Not itself a {@code
 * LockListener}, so that the starter, which registers the application's listener beans, does not
 * register it twice. Thread-safe and non-blocking, as a listener must be.
 */
final class ClientHolds {
    private final Map<String, Integer> open = new ConcurrentHashMap<>();
    private volatile boolean attached;

    /** Returns the listener to register with the client, whose events the counts then follow. */
    LockListener attach() {
        attached = true;
        return new Counting();
    }

    /** The open holds by name, or null when this listener is not the client's (the application made its own). */
    Map<String, Integer> snapshot() {
        return attached ? new TreeMap<>(open) : null;
    }

    private void ended(String lockName) {
        open.computeIfPresent(lockName, (name, count) -> count > 1 ? count - 1 : null);
    }

    /** The client's listener: a hold started adds one to its name, a hold ended takes one away. */
    private final class Counting implements LockListener {
        @Override
        public void holdStarted(String lockName) {
            open.merge(lockName, 1, Integer::sum);
        }

        @Override
        public void holdReleased(String lockName) {
            ended(lockName);
        }

        @Override
        public void holdLost(String lockName, LockLostException loss) {
            ended(lockName);
        }

        @Override
        public void holdExpired(String lockName, LockLostException end) {
            ended(lockName);
        }
    }
}
