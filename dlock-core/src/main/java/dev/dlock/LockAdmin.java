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
     * Reads one lock name of any kind: its kind, holders (owner, weight, token, remaining lease time)
     * and queue; one round trip, no write (a shared holder whose lease ran out is left out, not
     * purged).
     *
     * @param name the lock name
     * @return the lock's state
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if the name's key holds something that is not dlock's
     */
    LockInfo status(String name);

    /**
     * Lists the held lock names of every kind (a name with at least one live holder) whose names match a glob pattern ({@code *}, {@code ?}, {@code [...]} and
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
    List<LockInfo> list(String pattern);

    /**
     * Removes every holder of a lock name whoever holds it and lets the queue in, as releases would: a
     * mutex is handed to the oldest queued waiter (a free lock with waiters queued behind it is handed
     * over too); a shared lock (a semaphore) loses all its holders and grants its queue from the head as
     * many waiters as now fit. All holders, not one: the command is for a name that is stuck, and one
     * crashed holder's permits come back on their own when its lease runs out. The holders are not told
     * at once: each one's next renewal finds its hold gone and its lease is lost (with {@link
     * LockLostException} to its listeners). The fencing counter stays, so later holders still get
     * higher tokens. Redisson calls this {@code forceUnlock}.
     *
     * @param name the lock name
     * @return what was removed (its holders), and whether a waiter got the lock
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank or too long
     * @throws IllegalStateException if the client is closed
     * @throws LockConnectionException if Redis cannot be reached within the command timeout
     * @throws LockServerException if the name's key holds something that is not dlock's (nothing is
     *     deleted)
     */
    ForcedUnlock forceUnlock(String name);

    /**
     * Deletes every key of a lock name of any kind, its fencing counter included, and wakes its waiters. Only for
     * throwaway names (tests, demos): afterwards the fencing tokens of this name rely on the server
     * clock alone (<a href="https://github.com/dlock-dev/dlock/blob/main/docs/fencing.md">docs/fencing.md</a>).
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

    /** The kind of a plain lock: {@link LockClient#lock(String)}. */
    String MUTEX = "mutex";

    /**
     * One holder of a lock name: a mutex's holder, or one acquire of a shared lock (its permits).
     * Immutable and thread-safe.
     *
     * @param ownerId the holder's owner id ({@code <client id>:lease-<n>} for a lease)
     * @param weight how much of the capacity it holds: 1 for a mutex, the permits of a semaphore acquire
     * @param fencingToken its fencing token
     * @param remaining its remaining lease time as Redis counts it (server time)
     */
    record Holder(String ownerId, int weight, long fencingToken, Duration remaining) {
        /**
         * Validates the components.
         *
         * @param ownerId see the record component
         * @param weight see the record component
         * @param fencingToken see the record component
         * @param remaining see the record component
         * @throws NullPointerException if a reference component is null
         */
        public Holder {
            Objects.requireNonNull(ownerId, "ownerId");
            Objects.requireNonNull(remaining, "remaining");
        }
    }

    /**
     * One acquire queued in Redis for a name. Immutable and thread-safe.
     *
     * @param ownerId the owner id it will hold the name as
     * @param weight what it asks for: 1 for a mutex, the permits of a semaphore acquire
     */
    record Waiter(String ownerId, int weight) {
        /**
         * Validates the components.
         *
         * @param ownerId see the record component
         * @param weight see the record component
         * @throws NullPointerException if {@code ownerId} is null
         */
        public Waiter {
            Objects.requireNonNull(ownerId, "ownerId");
        }
    }

    /**
     * What {@link #forceUnlock(String)} did. Immutable and thread-safe.
     *
     * @param removed the name as it was, with the holders that were removed (its {@code queue} is not
     *     read), or empty if nobody held it
     * @param handedOver whether the lock was handed (or permits granted) to a queued waiter
     */
    record ForcedUnlock(Optional<LockInfo> removed, boolean handedOver) {
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
