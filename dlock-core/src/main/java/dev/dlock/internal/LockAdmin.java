package dev.dlock.internal;

import dev.dlock.LockClient;
import dev.dlock.spi.Script;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Operator commands on locks whatever their owner: read a lock with its waiters, list the held
 * locks, delete a stuck lock. Used by the {@code dlock} command; not part of the stable API.
 *
 * <p>Waiters are counted as the clients subscribed to the lock's wake-up channel ({@code PUBSUB
 * NUMSUB}): one client counts once however many of its threads wait. {@link #list(String)} uses
 * {@code SCAN} one page per script call, so it never blocks Redis for long, and sees one node only
 * (standalone Redis; in a cluster it lists the node the client talks to).
 *
 * <p>This class is thread-safe; it holds nothing but its client.
 */
public final class LockAdmin {
    private static final Script STATUS = Scripts.loadWithCommon("admin-status", Script.Reply.ARRAY);
    private static final Script SCAN = Scripts.load("admin-scan", Script.Reply.ARRAY);
    private static final Script FORCE_RELEASE = Scripts.loadWithCommon("admin-force-release", Script.Reply.ARRAY);
    private static final Script PURGE = Scripts.load("admin-purge", Script.Reply.INTEGER);
    private static final String SCAN_COUNT = "200";

    private final RedisLockClient client;

    private LockAdmin(RedisLockClient client) {
        this.client = client;
    }

    /**
     * Returns the admin view of a client built by {@link LockClient#builder()}; it uses the client's
     * connection and key prefix.
     *
     * @param client the client
     * @return the admin view
     * @throws IllegalArgumentException if {@code client} was not built by dlock
     */
    public static LockAdmin of(LockClient client) {
        if (client instanceof RedisLockClient redis) {
            return new LockAdmin(redis);
        }
        throw new IllegalArgumentException("client must be built by LockClient.builder(), was " + client);
    }

    /**
     * Reads one lock: holder, remaining lease time, fencing token and waiters; one round trip.
     *
     * @param name the lock name
     * @return the lock's state
     * @throws IllegalArgumentException if {@code name} is not a valid lock name
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached
     * @throws dev.dlock.LockServerException if the lock key holds another type
     */
    public LockState status(String name) {
        LockKeys keys = keys(name);
        List<?> reply = (List<?>) client.scripts()
                .await(
                        client.scripts()
                                .eval(STATUS, new String[] {keys.lock(), keys.fence(), keys.queue()}, new String[0]),
                        keys.lock());
        long pttl = (Long) reply.get(0);
        Optional<String> holder = reply.size() > 3 ? Optional.of((String) reply.get(3)) : Optional.empty();
        return new LockState(name, holder, Math.max(0, pttl), (Long) reply.get(1), (Long) reply.get(2));
    }

    /**
     * Lists the held locks whose names match a glob pattern ({@code *}, {@code ?}, {@code [...]}, as
     * Redis' {@code MATCH}), walking the whole key space with {@code SCAN}. A lock taken or released
     * during the walk may or may not be listed.
     *
     * @param pattern a glob over lock names; {@code *} lists all
     * @return the held locks, in no particular order
     * @throws IllegalArgumentException if {@code pattern} is null or blank
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached
     */
    public List<LockState> list(String pattern) {
        Args.notBlank("pattern", pattern);
        String prefix = client.keyPrefix();
        // Both key forms of LockKeys ("prefix:{name}", "prefix:^{hex}") in one walk; names are matched here.
        String match = escapeGlob(prefix) + ":[{^]*}";
        List<LockState> held = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> page = (List<?>) client.scripts()
                    .await(
                            client.scripts().eval(SCAN, new String[0], new String[] {
                                cursor, match, SCAN_COUNT, LockKeys.QUEUE_SUFFIX
                            }),
                            match);
            cursor = (String) page.get(0);
            for (Object entry : page.subList(1, page.size())) {
                List<?> lock = (List<?>) entry;
                String name = LockKeys.nameOf(prefix, (String) lock.get(0));
                if (name != null && Glob.matches(pattern, name)) {
                    held.add(new LockState(
                            name,
                            Optional.of((String) lock.get(1)),
                            Math.max(0, (Long) lock.get(2)),
                            (Long) lock.get(3),
                            (Long) lock.get(4)));
                }
            }
        } while (!cursor.equals("0"));
        return held;
    }

    /**
     * Deletes a lock whoever holds it and hands it to the oldest queued waiter, as a release would
     * (a free lock with waiters queued behind it is handed over too). The holder is not told: its
     * next renewal finds the key gone and marks its lease lost.
     *
     * @param name the lock name
     * @return what was removed, and whether a waiter got the lock
     * @throws IllegalArgumentException if {@code name} is not a valid lock name
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached
     * @throws dev.dlock.LockServerException if the lock key holds another type (nothing is deleted)
     */
    public ForcedRelease forceRelease(String name) {
        LockKeys keys = keys(name);
        List<?> reply = (List<?>) client.scripts()
                .await(client.scripts().eval(FORCE_RELEASE, keys.scriptKeys(), new String[0]), keys.lock());
        boolean handedOver = (Long) reply.get(3) == 1L;
        if ((Long) reply.get(0) == 0L) {
            return new ForcedRelease(Optional.empty(), handedOver);
        }
        long queued = 0; // the removed holder's queue is not counted: the hand-off already changed it
        return new ForcedRelease(
                Optional.of(new LockState(
                        name, Optional.of((String) reply.get(4)), (Long) reply.get(1), (Long) reply.get(2), queued)),
                handedOver);
    }

    /**
     * Deletes every key of a lock, its fencing counter included, and wakes its waiters. Only for
     * throwaway names: afterwards the fencing tokens of this name rely on the server clock alone
     * (see docs/fencing.md).
     *
     * @param name the lock name
     * @return the number of keys deleted
     * @throws IllegalArgumentException if {@code name} is not a valid lock name
     * @throws dev.dlock.LockConnectionException if Redis cannot be reached
     */
    public long purge(String name) {
        LockKeys keys = keys(name);
        return (Long)
                client.scripts().await(client.scripts().eval(PURGE, keys.scriptKeys(), new String[0]), keys.lock());
    }

    /**
     * Returns the name of a key that belongs beside a lock's own keys (same hash tag, so same cluster
     * slot), such as a resource the lock guards: the lock's key, {@code :} and the suffix.
     *
     * @param name the lock name
     * @param suffix the key's own part, not blank
     * @return the key
     * @throws IllegalArgumentException if {@code name} or {@code suffix} is invalid
     */
    public String keyBeside(String name, String suffix) {
        Args.notBlank("suffix", suffix);
        return keys(name).lock() + ":" + suffix;
    }

    /**
     * Returns the Redis key of a lock's hash.
     *
     * @param name the lock name
     * @return the key
     * @throws IllegalArgumentException if {@code name} is not a valid lock name
     */
    public String lockKey(String name) {
        return keys(name).lock();
    }

    private LockKeys keys(String name) {
        Args.name(name, LockClient.Builder.MAX_NAME_LENGTH);
        client.checkOpen();
        return LockKeys.of(client.keyPrefix(), name);
    }

    private static String escapeGlob(String text) {
        StringBuilder out = new StringBuilder(text.length() + 4);
        for (char c : text.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    /**
     * What a forced release did. Immutable and thread-safe.
     *
     * @param removed the lock that was deleted, or empty if it was free
     * @param handedOver whether the lock was handed to a queued waiter
     */
    public record ForcedRelease(Optional<LockState> removed, boolean handedOver) {
        /**
         * Validates the components.
         *
         * @param removed see the record component
         * @param handedOver see the record component
         * @throws NullPointerException if {@code removed} is null
         */
        public ForcedRelease {
            java.util.Objects.requireNonNull(removed, "removed");
        }
    }

    /**
     * One lock as an operator sees it. Immutable and thread-safe.
     *
     * @param name the lock name
     * @param holderId the holder's owner id, or empty when the lock is free
     * @param remainingMillis the holder's remaining lease time in milliseconds, 0 when free
     * @param fencingToken the holder's token; when free, the last token issued if Redis still has it,
     *     else 0
     * @param waiters the acquires queued in Redis for a hand-off (threads or leases, of any client)
     */
    public record LockState(
            String name, Optional<String> holderId, long remainingMillis, long fencingToken, long waiters) {

        /**
         * Tells whether the lock was held when it was read.
         *
         * @return {@code true} when held
         */
        public boolean isHeld() {
            return holderId.isPresent();
        }
    }
}
