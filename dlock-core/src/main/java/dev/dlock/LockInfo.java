package dev.dlock;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of one lock as Redis and this client saw it at one instant. Immutable and thread-safe.
 *
 * @param name the lock name
 * @param holderId the owner id of the current holder (of a lock of several holders: the latest holder of this view,
 *     the one with the highest token), or empty when nobody holds it
 * @param remaining the holder's remaining lease time as Redis counts it, zero when free
 * @param fencingToken the current holder's fencing token; when free, the last token issued for
 *     this name if Redis still remembers it, else 0
 * @param holdCount how many times the calling thread holds this lock through this client
 * @param kind what the name is: {@value LockAdmin#MUTEX}, or the first word of a shared lock's record (a lock of
 *     several holders, such as a read-write lock, shows its own word)
 * @param holders every holder Redis had, by fencing token: one at most for a mutex (the holder above); readers (weight
 *     1) or a writer (the whole capacity) for a read-write lock; each permit holder with its permits for a semaphore
 * @param waiters how many acquires were queued in Redis for a hand-off (threads or leases, of any client); 0 where
 *     nothing queues (Redlock waiters poll)
 * @param queue the first queued waiters in FIFO order, with the weight each asks for (up to {@value #QUEUE_SHOWN};
 *     all are counted in {@code waiters}). A mutex's acquires behind another acquire or hold of the same client wait in
 *     that client's line (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/waiting.md">docs/waiting.md</a>), not in Redis: they are neither listed nor counted.
 */
public record LockInfo(
        String name,
        Optional<String> holderId,
        Duration remaining,
        long fencingToken,
        int holdCount,
        String kind,
        List<LockAdmin.Holder> holders,
        long waiters,
        List<LockAdmin.Waiter> queue) {

    /** How many queued waiters a snapshot lists at most; {@link #waiters()} counts them all. */
    public static final int QUEUE_SHOWN = 100;

    /**
     * Validates the components.
     *
     * @param name see the record component
     * @param holderId see the record component
     * @param remaining see the record component
     * @param fencingToken see the record component
     * @param holdCount see the record component
     * @param kind see the record component
     * @param holders see the record component
     * @param waiters see the record component
     * @param queue see the record component
     * @throws NullPointerException if a reference component is null
     * @throws IllegalArgumentException if {@code waiters} is negative or less than the queue's length
     */
    public LockInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(holderId, "holderId");
        Objects.requireNonNull(remaining, "remaining");
        Objects.requireNonNull(kind, "kind");
        holders = List.copyOf(holders);
        queue = List.copyOf(queue);
        if (waiters < queue.size()) {
            throw new IllegalArgumentException("waiters " + waiters + " < the " + queue.size() + " queued listed");
        }
    }

    /**
     * A mutex's snapshot: kind {@value LockAdmin#MUTEX}, the holder (if any) as its one holder of weight 1.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when free
     * @param remaining the holder's remaining lease time, zero when free
     * @param fencingToken the holder's token, or the last one issued when free (0: unknown)
     * @param holdCount how many times the calling thread holds this lock through this client
     * @param waiters how many acquires were queued in Redis
     * @param queue the first queued waiters in FIFO order
     * @throws NullPointerException if a reference argument is null
     * @throws IllegalArgumentException if {@code waiters} is less than the queue's length
     */
    public LockInfo(
            String name,
            Optional<String> holderId,
            Duration remaining,
            long fencingToken,
            int holdCount,
            long waiters,
            List<LockAdmin.Waiter> queue) {
        this(
                name,
                holderId,
                remaining,
                fencingToken,
                holdCount,
                LockAdmin.MUTEX,
                holderId.map(id -> List.of(new LockAdmin.Holder(id, 1, fencingToken, remaining)))
                        .orElse(List.of()),
                waiters,
                queue);
    }

    /**
     * A mutex's snapshot with nobody queued in Redis (as for Redlock, whose waiters poll): kind {@value
     * LockAdmin#MUTEX}, the holder (if any) as its one holder of weight 1.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when free
     * @param remaining the holder's remaining lease time, zero when free
     * @param fencingToken the holder's token, or the last one issued when free (0: unknown)
     * @param holdCount how many times the calling thread holds this lock through this client
     * @throws NullPointerException if a reference argument is null
     */
    public LockInfo(String name, Optional<String> holderId, Duration remaining, long fencingToken, int holdCount) {
        this(name, holderId, remaining, fencingToken, holdCount, 0, List.of());
    }

    /**
     * Tells whether somebody held the lock when the snapshot was taken.
     *
     * @return {@code true} when the lock was held
     */
    public boolean isLocked() {
        return holderId.isPresent();
    }
}
