package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The locks still held once every caller has given back what it held: a mutex's lock hash ({@code <prefix>:{name}},
 * a hash with its holder) on the single server, a Redlock lock key ({@code …:redlock}) on a master. Every mutex and
 * Redlock hold of a run is watchdog-renewed with a lease of about a second, so once the releases on their way have
 * landed and every hold not renewed has expired, one still there is renewed by a client for no caller: an acquire that
 * ended without a hold (an interrupted {@code lockInterruptibly()}, a cancelled or failed wait) but kept one, which
 * would block its name until the client closes, and the client's close would then release it unseen. Not
 * thread-safe.
 */
final class UnownedLocks {
    private UnownedLocks() {}

    /**
     * The mutex and Redlock locks held on {@code server} and {@code nodes}.
     *
     * @param server the single server
     * @param nodes Redlock's masters
     * @return the keys held, described, or null if there are none
     */
    static String held(SimRedis server, List<SimRedis> nodes) {
        List<String> out = new ArrayList<>();
        for (String key : server.keys()) {
            Object type = server.call("TYPE", key);
            if (key.endsWith("}")
                    && type instanceof StatusReply status
                    && status.text().equals("hash")) {
                out.add(key + " by " + server.call("HGET", key, "owner") + " (pttl " + server.call("PTTL", key)
                        + " ms)");
            }
        }
        for (int n = 0; n < nodes.size(); n++) {
            SimRedis node = nodes.get(n);
            for (String key : node.keys()) {
                if (key.endsWith(":redlock")) {
                    out.add(key + " on Redlock master " + n + " by " + node.call("GET", key) + " (pttl "
                            + node.call("PTTL", key) + " ms)");
                }
            }
        }
        return out.isEmpty() ? null : "held after every caller gave its holds back: " + String.join(", ", out);
    }
}
