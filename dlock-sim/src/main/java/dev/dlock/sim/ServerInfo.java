package dev.dlock.sim;

import java.util.Locale;

/**
 * {@code INFO} as a Redis 7.0 standalone server with {@code maxmemory 0} and {@code maxmemory-policy noeviction}
 * answers it, limited to the fields a client of dlock reads (dlock's {@code server-policy.lua} reads {@code
 * maxmemory_policy} and {@code maxmemory}); counters that depend on the process (memory used, uptime) are not given.
 */
final class ServerInfo {
    static final String VERSION = "7.0.15";

    private ServerInfo() {}

    static String info(String[] a, Keyspace keys) {
        StringBuilder out = new StringBuilder();
        boolean all = a.length == 1;
        for (int i = 1; i < a.length; i++) {
            String s = a[i].toLowerCase(Locale.ROOT);
            all |= s.equals("all") || s.equals("everything") || s.equals("default");
        }
        if (all || asked(a, "server")) {
            section(out, "# Server\r\nredis_version:" + VERSION + "\r\nredis_mode:standalone\r\nprocess_id:1\r\n");
        }
        if (all || asked(a, "memory")) {
            section(
                    out,
                    "# Memory\r\nmaxmemory:0\r\nmaxmemory_human:0B\r\nmaxmemory_policy:noeviction\r\n"
                            + "mem_allocator:simulated\r\n");
        }
        if (all || asked(a, "replication")) {
            section(out, "# Replication\r\nrole:master\r\nconnected_slaves:0\r\n");
        }
        if (all || asked(a, "keyspace")) {
            keys.dropExpired();
            section(out, "# Keyspace\r\n" + (keys.size() == 0 ? "" : "db0:keys=" + keys.size() + "\r\n"));
        }
        return out.toString();
    }

    private static boolean asked(String[] a, String section) {
        for (int i = 1; i < a.length; i++) {
            if (a[i].equalsIgnoreCase(section)) {
                return true;
            }
        }
        return false;
    }

    private static void section(StringBuilder out, String text) {
        if (out.length() > 0) {
            out.append("\r\n");
        }
        out.append(text);
    }
}
