package dev.dlock;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A snapshot of one lock as Redis and this client saw it at one instant. Immutable and thread-safe.
 *
 * @param name the lock name
 * @param holderId the owner id of the current holder, or empty when the lock is free
 * @param remaining the holder's remaining lease time as Redis counts it, zero when free
 * @param fencingToken the current holder's fencing token; when free, the last token issued for
 *     this name if Redis still remembers it, else 0
 * @param holdCount how many times the calling thread holds this lock through this client
 * @param kind what the name is: {@value LockAdmin#MUTEX}, or the first word of a shared lock's record (a lock of
 *     several holders, such as a read-write lock, shows its own word)
 * @param holders every holder Redis had: one at most for a mutex (the holder above); the queue of waiters is read by
 *     {@link LockAdmin#status(String)}
 */
public record LockInfo(
        String name,
        Optional<String> holderId,
        Duration remaining,
        long fencingToken,
        int holdCount,
        String kind,
        List<LockAdmin.Holder> holders) {

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
     * @throws NullPointerException if a reference component is null
     */
    public LockInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(holderId, "holderId");
        Objects.requireNonNull(remaining, "remaining");
        Objects.requireNonNull(kind, "kind");
        holders = List.copyOf(holders);
    }

    /**
     * A mutex's snapshot: kind {@value LockAdmin#MUTEX}, the holder (if any) as its one holder of weight 1.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when free
     * @param remaining the holder's remaining lease time, zero when free
     * @param fencingToken the holder's token, or the last one issued when free (0: unknown)
     * @param holdCount how many times the calling thread holds this lock through this client
     * @throws NullPointerException if a reference argument is null
     */
    public LockInfo(String name, Optional<String> holderId, Duration remaining, long fencingToken, int holdCount) {
        this(
                name,
                holderId,
                remaining,
                fencingToken,
                holdCount,
                LockAdmin.MUTEX,
                holderId.map(id -> List.of(new LockAdmin.Holder(id, 1, fencingToken, remaining)))
                        .orElse(List.of()));
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
