package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a quiescent run may leave on its server (docs/lock-family.md, "Keys"): a name's fencing counter ({@code
 * …:fence}) and a shared lock's record ({@code semaphore <created> <capacity>} or {@code rw …}), both strings that
 * expire within 7 days; a shared lock's holds hash ({@code …:holds}) whose every entry has expired, which the design
 * lets live up to 7 idle days until the next script on the name purges it (a holder whose release never reached the
 * server, as when its connection dropped, leaves one); and on a Redlock master its fencing counter ({@code
 * …:redlock-fence}), which never expires; and a semaphore's record whose count {@code setPermits} changed, which
 * never expires by design (DistributedSemaphore). Anything else (a live hold, a queue, another record that never
 * expires) is a leak. Not thread-safe.
 */
final class Leftovers {
    private static final long SEVEN_DAYS_MS = 7 * 24 * 3600 * 1000L;
    private static final Pattern RECORD = Pattern.compile("(semaphore|rw) \\d+ \\d+");

    private Leftovers() {}

    /**
     * What the server holds that it should not once every caller is gone and every entry had time to expire.
     *
     * @param server the run's server
     * @return the unexpected keys, described, or null if there are none
     */
    static String unexpected(SimRedis server) {
        return unexpected(server, SEVEN_DAYS_MS, Set.of());
    }

    /**
     * {@link #unexpected(SimRedis)}, where a shared lock's record may live as long as the longest fixed lease of the
     * run (it is kept as long as the longest lease written beside it), and the holders' entries of fixed leases whose
     * release was not confirmed (a stall, a lost reply) may stay: such a hold lives on to the end of its lease by design.
     *
     * @param server the run's server
     * @param longestLeaseMs the longest lease time the run's callers asked for
     * @param unreleased the fencing tokens of fixed-lease holds whose release was not confirmed
     * @return the unexpected keys, described, or null if there are none
     */
    static String unexpected(SimRedis server, long longestLeaseMs, Set<Long> unreleased) {
        return unexpected(server, longestLeaseMs, unreleased, Map.of());
    }

    /**
     * {@link #unexpected(SimRedis, long, Set)}, where a name's holders' hash may also keep as many live entries as
     * fixed-lease acquires of the name failed with their outcome unknown: the client then undoes the acquire with an
     * owner-checked release, and if that cannot reach the server either, the hold it may have taken (or been granted
     * while it waited) ends when its lease runs out, by design (dlock-core's {@code undoUnknown}).
     *
     * @param server the run's server
     * @param longestLeaseMs the longest lease time the run's callers asked for
     * @param unreleased the fencing tokens of fixed-lease holds whose release was not confirmed
     * @param unknown per name, how many fixed-lease acquires of it failed with their outcome unknown
     * @return the unexpected keys, described, or null if there are none
     */
    static String unexpected(SimRedis server, long longestLeaseMs, Set<Long> unreleased, Map<String, Integer> unknown) {
        long recordMs = Math.max(SEVEN_DAYS_MS, longestLeaseMs);
        List<String> out = new ArrayList<>();
        for (String key : server.keys()) {
            Object t = server.call("TYPE", key);
            String type = t instanceof StatusReply status ? status.text() : String.valueOf(t);
            long ttl = (Long) server.call("PTTL", key);
            boolean expires = ttl > 0 && ttl <= SEVEN_DAYS_MS;
            if (type.equals("hash") && key.endsWith(":holds") && ttl > 0) {
                if (onlyEnded(server, key, unreleased, unknown.getOrDefault(nameOf(key), 0))) {
                    continue;
                }
            } else if (type.equals("string")
                    && RECORD.matcher(String.valueOf(server.call("GET", key))).matches()) {
                if (ttl > 0 && ttl <= recordMs) {
                    continue;
                }
                String[] record = String.valueOf(server.call("GET", key)).split(" ");
                if (ttl == -1 && record[0].equals("semaphore") && !record[1].equals(record[2])) {
                    continue; // a count changed by setPermits has no expiry, by design
                }
            } else if (type.equals("string") && key.endsWith(":redlock-fence")) {
                if (String.valueOf(server.call("GET", key)).matches("\\d+")) {
                    continue; // a Redlock master's fencing counter never expires: tokens must not go back
                }
            } else if (type.equals("string") && expires && key.endsWith(":fence")) {
                if (String.valueOf(server.call("GET", key)).matches("\\d+")) {
                    continue;
                }
            }
            out.add(key + " (" + type + ", pttl " + ttl + " ms)");
        }
        return out.isEmpty() ? null : "left on the server: " + String.join(", ", out);
    }

    /** The lock name of a key {@code prefix:{name}...}. */
    private static String nameOf(String key) {
        int open = key.indexOf('{');
        int close = key.indexOf('}', open + 1);
        return open < 0 || close < 0 ? key : key.substring(open + 1, close);
    }

    /**
     * Whether every entry of a holders' hash ({@code <weight> <token> <expiry ms>...}) is one of the unreleased holds
     * or has expired by the server's time (its release never reached the server: the next script purges it), but for
     * at most {@code unknown} live ones (acquires of unknown outcome whose undo may not have reached the server).
     */
    private static boolean onlyEnded(SimRedis server, String key, Set<Long> unreleased, int unknown) {
        List<?> time = (List<?>) server.call("TIME");
        long nowMs =
                Long.parseLong(String.valueOf(time.get(0))) * 1000 + Long.parseLong(String.valueOf(time.get(1))) / 1000;
        List<?> fields = (List<?>) server.call("HGETALL", key);
        for (int i = 1; i < fields.size(); i += 2) {
            String[] entry = fields.get(i).toString().split(" ");
            if (entry.length < 3 || !entry[1].matches("\\d+") || !entry[2].matches("\\d+")) {
                return false;
            }
            if (!(unreleased.contains(Long.parseLong(entry[1])) || Long.parseLong(entry[2]) < nowMs) && --unknown < 0) {
                return false;
            }
        }
        return true;
    }
}
