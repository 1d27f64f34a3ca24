package dev.dlock;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of one lock name as Redis had it at one instant, of any kind: a mutex ({@value LockAdmin#MUTEX}) has
 * at most one holder; a shared lock (a semaphore, a read-write lock) has holders with weights against a capacity.
 * {@link DistributedLock#info()} and {@link LockAdmin#status(String)} both answer with it. Immutable and thread-safe.
 *
 * <p>{@link #toString()} reads as a sentence for logs, for example {@code payments (mutex): held by 1f0c…:lease-7,
 * token 42, 29.512 s left; 1/1 used; 2 waiting}.
 *
 * @param name the lock name
 * @param kind what the name is: {@value LockAdmin#MUTEX}, or the first word of a shared lock's record (such as
 *     {@code "semaphore"}; a read-write lock shows its own word)
 * @param holderId the owner id of the holder standing for the name (of several holders, the one with the highest
 *     token; from a read or write lock's {@code info()}, the latest holder of that view), or empty when nobody holds it
 * @param remaining that holder's remaining lease time as Redis counts it, zero when free
 * @param fencingToken that holder's fencing token; when free, the last token issued for this name if Redis still
 *     remembers it, else 0
 * @param capacity the weight the holders may hold together: 1 for a mutex, a semaphore's permits, a read-write
 *     lock's capacity (a writer holds all of it, a reader 1)
 * @param holders every holder Redis had, by fencing token (oldest first): one at most for a mutex; readers or a
 *     writer for a read-write lock; each permit holder with its permits for a semaphore
 * @param waiters how many acquires were queued in Redis for a hand-off (threads or leases, of any client); 0 where
 *     nothing queues (Redlock waiters poll)
 * @param queue the first queued waiters in FIFO order, with the weight each asks for (up to {@value #QUEUE_SHOWN};
 *     all are counted in {@code waiters}; {@link LockAdmin#list} lists none). A mutex's acquires behind another
 *     acquire or hold of the same client wait in that client's line
 *     (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/waiting.md">docs/waiting.md</a>), not in Redis:
 *     they are neither listed nor counted.
 */
public record LockInfo(
        String name,
        String kind,
        Optional<String> holderId,
        Duration remaining,
        long fencingToken,
        int capacity,
        List<LockAdmin.Holder> holders,
        long waiters,
        List<LockAdmin.Waiter> queue) {

    /** How many queued waiters a snapshot lists at most; {@link #waiters()} counts them all. */
    public static final int QUEUE_SHOWN = 100;

    /**
     * Validates the components and copies the lists.
     *
     * @param name see the record component
     * @param kind see the record component
     * @param holderId see the record component
     * @param remaining see the record component
     * @param fencingToken see the record component
     * @param capacity see the record component
     * @param holders see the record component
     * @param waiters see the record component
     * @param queue see the record component
     * @throws NullPointerException if a reference component is null
     * @throws IllegalArgumentException if {@code capacity} is below 1, or {@code waiters} is less than the queue's
     *     length
     */
    public LockInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(holderId, "holderId");
        Objects.requireNonNull(remaining, "remaining");
        holders = List.copyOf(holders);
        queue = List.copyOf(queue);
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " < 1");
        }
        if (waiters < queue.size()) {
            throw new IllegalArgumentException("waiters " + waiters + " < the " + queue.size() + " queued listed");
        }
    }

    /**
     * A mutex's snapshot: kind {@value LockAdmin#MUTEX}, capacity 1, the holder (if any) as its one holder of weight
     * 1.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when free
     * @param remaining the holder's remaining lease time, zero when free
     * @param fencingToken the holder's token, or the last one issued when free (0: unknown)
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
            long waiters,
            List<LockAdmin.Waiter> queue) {
        this(
                name,
                LockAdmin.MUTEX,
                holderId,
                remaining,
                fencingToken,
                1,
                holderId.map(id -> List.of(new LockAdmin.Holder(id, 1, fencingToken, remaining)))
                        .orElse(List.of()),
                waiters,
                queue);
    }

    /**
     * A mutex's snapshot with nobody queued in Redis (as for Redlock, whose waiters poll): kind {@value
     * LockAdmin#MUTEX}, capacity 1, the holder (if any) as its one holder of weight 1.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when free
     * @param remaining the holder's remaining lease time, zero when free
     * @param fencingToken the holder's token, or the last one issued when free (0: unknown)
     * @throws NullPointerException if a reference argument is null
     */
    public LockInfo(String name, Optional<String> holderId, Duration remaining, long fencingToken) {
        this(name, holderId, remaining, fencingToken, 0, List.of());
    }

    /**
     * Tells whether somebody held the lock when the snapshot was taken (from a read or write lock's {@code info()}:
     * somebody of that view).
     *
     * @return {@code true} when the lock was held
     */
    public boolean isLocked() {
        return holderId.isPresent();
    }

    /**
     * The weight the holders hold together: a semaphore's permits in use, 1 for a held mutex.
     *
     * @return the sum of the holders' weights
     */
    public int used() {
        return holders.stream().mapToInt(LockAdmin.Holder::weight).sum();
    }

    /**
     * Describes the snapshot in words, for logs and the console: the name and kind, who holds it (with the token and
     * the time left), the weight used of the capacity, and how many wait. The exact wording may change; read the
     * components in code.
     *
     * @return for example {@code payments (mutex): free, last token 42; 0/1 used; 0 waiting}
     */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(name).append(" (").append(kind).append("): ");
        if (holderId.isPresent()) {
            s.append("held by ").append(holderId.get());
            if (holders.size() > 1) {
                s.append(" and ").append(holders.size() - 1).append(" more");
            }
            s.append(", token ")
                    .append(fencingToken)
                    .append(", ")
                    .append(seconds(remaining))
                    .append(" left");
        } else if (!holders.isEmpty()) {
            s.append(holders.size())
                    .append(holders.size() == 1 ? " holder" : " holders")
                    .append(" of another view");
        } else {
            s.append("free");
            if (fencingToken > 0) {
                s.append(", last token ").append(fencingToken);
            }
        }
        s.append("; ").append(used()).append('/').append(capacity).append(" used; ");
        s.append(waiters).append(" waiting");
        if (!queue.isEmpty()) {
            s.append(" (first ").append(queue.get(0).ownerId()).append(')');
        }
        return s.toString();
    }

    private static String seconds(Duration d) {
        long millis = d.toMillis();
        return String.format(java.util.Locale.ROOT, "%d.%03d s", millis / 1000, millis % 1000);
    }
}
