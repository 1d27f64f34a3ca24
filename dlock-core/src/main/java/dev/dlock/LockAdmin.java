package dev.dlock;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Operator commands on locks whoever holds them: read one lock with its waiters, list the held
 * locks, force a stuck lock open, delete a throwaway lock's keys. The {@code dlock} command line is
 * built on it. Obtained from {@link LockClient#admin()}; it uses that client's connection and key
 * prefix, and fails with {@link IllegalStateException} once the client is closed.
 *
 * <pre>{@code
 * LockAdmin admin = client.admin();
 * admin.status("payments").holderId().ifPresent(id -> log.info("payments is held by {}", id));
 * admin.forceUnlock("payments"); // the holder learns it at its next renewal
 * }</pre>
 *
 * <p>Waiters are the acquires queued in Redis for a hand-off, of any client. {@link #list(String)}
 * walks the key space with {@code SCAN}, one page per script call, so it never blocks Redis for long;
 * in a cluster it sees the node the client talks to only.
 *
 * <p>Implementations are thread-safe and hold nothing but their client.
 */
public interface LockAdmin {

    /**
     * Reads one lock: holder, remaining lease time, fencing token and waiters; one round trip.
     *
     * @param name the lock name
     * @return the lock's state
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if the lock's key holds another type
     */
    LockState status(String name);

    /**
     * Lists the held locks whose names match a glob pattern ({@code *}, {@code ?}, {@code [...]} and
     * {@code \} escapes, as Redis' {@code MATCH}). A lock taken or released during the walk may or may
     * not be listed.
     *
     * @param pattern a glob over lock names; {@code *} lists all
     * @return the held locks, in no particular order
     * @throws NullPointerException if {@code pattern} is null
     * @throws IllegalArgumentException if {@code pattern} is blank
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     */
    List<LockState> list(String pattern);

    /**
     * Deletes a lock whoever holds it and hands it to the oldest queued waiter, as a release would (a
     * free lock with waiters queued behind it is handed over too). The holder is not told at once: its
     * next renewal finds the key gone and its lease is lost (with {@link LockLostException} to its
     * listeners). The fencing counter stays, so later holders still get higher tokens. Redisson calls
     * this {@code forceUnlock}.
     *
     * @param name the lock name
     * @return what was removed, and whether a waiter got the lock
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if the lock's key holds another type (nothing is deleted)
     */
    ForcedUnlock forceUnlock(String name);

    /**
     * Deletes every key of a lock, its fencing counter included, and wakes its waiters. Only for
     * throwaway names (tests, demos): afterwards the fencing tokens of this name rely on the server
     * clock alone (docs/fencing.md).
     *
     * @param name the lock name
     * @return the number of keys deleted
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     */
    long purge(String name);

    /**
     * Returns the name of a key that belongs beside a lock's own keys: same hash tag, so same cluster
     * slot, which a script that checks the fencing token and writes the guarded resource needs. No
     * I/O.
     *
     * @param name the lock name
     * @param suffix the key's own part, not blank
     * @return the key: the lock's key, {@code :} and the suffix
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} or {@code suffix} is blank, or {@code name} too
     *     long
     * @throws IllegalStateException if the client is closed
     */
    String keyBeside(String name, String suffix);

    /**
     * One lock as an operator sees it. Immutable and thread-safe.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when the lock is free
     * @param remaining the holder's remaining lease time as Redis counts it, zero when free
     * @param fencingToken the holder's token; when free, the last token issued if Redis still has it,
     *     else 0
     * @param waiters the acquires queued in Redis for a hand-off (threads or leases, of any client)
     */
    record LockState(String name, Optional<String> holderId, Duration remaining, long fencingToken, long waiters) {

        /**
         * Validates the components.
         *
         * @param name see the record component
         * @param holderId see the record component
         * @param remaining see the record component
         * @param fencingToken see the record component
         * @param waiters see the record component
         * @throws NullPointerException if a reference component is null
         */
        public LockState {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(holderId, "holderId");
            Objects.requireNonNull(remaining, "remaining");
        }

        /**
         * Tells whether the lock was held when it was read.
         *
         * @return {@code true} when held
         */
        public boolean isHeld() {
            return holderId.isPresent();
        }
    }

    /**
     * What {@link #forceUnlock(String)} did. Immutable and thread-safe.
     *
     * @param removed the hold that was deleted, or empty if the lock was free
     * @param handedOver whether the lock was handed to a queued waiter
     */
    record ForcedUnlock(Optional<LockState> removed, boolean handedOver) {
        /**
         * Validates the components.
         *
         * @param removed see the record component
         * @param handedOver see the record component
         * @throws NullPointerException if {@code removed} is null
         */
        public ForcedUnlock {
            Objects.requireNonNull(removed, "removed");
        }
    }
}
