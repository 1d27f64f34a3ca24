package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a quiescent run may leave on its server (docs/lock-family.md, "Keys"): a name's fencing counter ({@code
 * …:fence}) and a shared lock's record ({@code semaphore <created> <capacity>} or {@code rw …}), both strings that
 * expire within 7 days; a shared lock's holds hash ({@code …:holds}) whose every entry has expired, which the design
 * lets live up to 7 idle days until the next script on the name purges it (a holder whose release never reached the
 * server, as when its connection dropped, leaves one); and on a Redlock master its fencing counter ({@code
 * …:redlock-fence}), which never expires. Anything else (a live hold, a queue, a record that never expires) is a
 * leak. Not thread-safe.
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
        List<String> out = new ArrayList<>();
        for (String key : server.keys()) {
            Object t = server.call("TYPE", key);
            String type = t instanceof StatusReply status ? status.text() : String.valueOf(t);
            long ttl = (Long) server.call("PTTL", key);
            boolean expires = ttl > 0 && ttl <= SEVEN_DAYS_MS;
            if (type.equals("string") && key.endsWith(":redlock-fence")) {
                if (String.valueOf(server.call("GET", key)).matches("\\d+")) {
                    continue; // a Redlock master's fencing counter never expires: tokens must not go back
                }
            } else if (type.equals("hash") && expires && key.endsWith(":holds")) {
                if (allExpired(server, key)) {
                    continue;
                }
            } else if (type.equals("string") && expires) {
                String value = String.valueOf(server.call("GET", key));
                if (key.endsWith(":fence")
                        ? value.matches("\\d+")
                        : RECORD.matcher(value).matches()) {
                    continue;
                }
            }
            out.add(key + " (" + type + ", pttl " + ttl + " ms)");
        }
        return out.isEmpty() ? null : "left on the server: " + String.join(", ", out);
    }

    /** Whether every entry of a holds hash ({@code <weight> <token> <expiry ms>[ g]}) expired by the server's time. */
    private static boolean allExpired(SimRedis server, String key) {
        List<?> time = (List<?>) server.call("TIME");
        long nowMs =
                Long.parseLong(String.valueOf(time.get(0))) * 1000 + Long.parseLong(String.valueOf(time.get(1))) / 1000;
        List<?> all = (List<?>) server.call("HGETALL", key);
        for (int i = 1; i < all.size(); i += 2) {
            String[] parts = String.valueOf(all.get(i)).split(" ");
            if (parts.length < 3 || !parts[2].matches("\\d+") || Long.parseLong(parts[2]) >= nowMs) {
                return false;
            }
        }
        return true;
    }
}
