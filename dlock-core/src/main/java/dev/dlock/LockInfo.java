package dev.dlock;

import java.time.Duration;
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
 */
public record LockInfo(String name, Optional<String> holderId, Duration remaining, long fencingToken, int holdCount) {

    /**
     * Validates the components.
     *
     * @param name see the record component
     * @param holderId see the record component
     * @param remaining see the record component
     * @param fencingToken see the record component
     * @param holdCount see the record component
     * @throws NullPointerException if a reference component is null
     */
    public LockInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(holderId, "holderId");
        Objects.requireNonNull(remaining, "remaining");
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
