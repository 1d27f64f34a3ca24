package dev.dlock.verify;

import dev.dlock.testkit.RedisServer;
import io.lettuce.core.KillArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;

/**
 * The faults that leave every process running but make the lock server refuse or forget something: flushed scripts,
 * full memory, killed pub/sub connections, SUBSCRIBE refused. Each heals fully; the lock must then be served at once
 * (see {@link WaitChecker}). Touches only the lock server this run started (the resource lives elsewhere or on keys
 * this class never writes), and kills only connections named after this run. Used by one thread.
 */
final class ServiceFaults {

    private final RedisServer server;
    private final RedisCommands<String, String> admin;
    private final String clientName;
    private final Duration ttl;

    /**
     * @param server the lock server, or {@code null} with {@code --redis} (then only {@link #pubsubKill} may run)
     * @param admin a connection to the lock server
     */
    ServiceFaults(RedisServer server, RedisCommands<String, String> admin, String clientName, Duration ttl) {
        this.server = server;
        this.admin = admin;
        this.clientName = clientName;
        this.ttl = ttl;
    }

    FaultInjector.Injected scriptFlush(Fault fault) {
        long start = System.nanoTime();
        for (int round = 0; round < 3; round++) {
            server.command("SCRIPT", "FLUSH");
            FaultInjector.sleep(ttl.dividedBy(10));
        }
        long heal = System.nanoTime();
        return new FaultInjector.Injected(fault, start, heal, heal, null);
    }

    /**
     * Writes a 1 MB filler key, then sets {@code maxmemory} half a megabyte below the server's use with {@code
     * noeviction}, so every write of the lock clients fails with an OOM error while reads and deletes still work;
     * heals by deleting the filler and restoring both settings.
     */
    FaultInjector.Injected outOfMemory(Fault fault, String fillerKey) {
        String oldMax = configGet("maxmemory");
        String oldPolicy = configGet("maxmemory-policy");
        server.command("SET", fillerKey, "x".repeat(1024 * 1024));
        long start = System.nanoTime();
        try {
            long used = infoField(String.valueOf(server.command("INFO", "memory")), "used_memory");
            server.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
            server.command("CONFIG", "SET", "maxmemory", Long.toString(Math.max(1, used - 512 * 1024)));
            FaultInjector.sleep(ttl.dividedBy(2));
        } finally {
            server.command("DEL", fillerKey);
            server.command("CONFIG", "SET", "maxmemory", oldMax);
            server.command("CONFIG", "SET", "maxmemory-policy", oldPolicy);
        }
        long heal = System.nanoTime();
        return new FaultInjector.Injected(fault, start, heal, heal, null);
    }

    /**
     * Kills this run's pub/sub connections three times, 0.1 TTL apart; the clients reconnect and subscribe again. A
     * client subscribes only while it has waiters, so a round that finds no pub/sub connection looks again every 20 ms
     * (for at most 3 TTL).
     */
    FaultInjector.Injected pubsubKill(Fault fault) {
        long start = System.nanoTime();
        long giveUp = start + ttl.multipliedBy(3).toNanos();
        int rounds = 0;
        int killed = 0;
        while (rounds < 3 && System.nanoTime() < giveUp) {
            int now = killPubsub();
            if (now > 0) {
                killed += now;
                rounds++;
                FaultInjector.sleep(ttl.dividedBy(10));
            } else {
                FaultInjector.sleep(Duration.ofMillis(20));
            }
        }
        long heal = System.nanoTime();
        return killed == 0
                ? new FaultInjector.Injected(fault, start, heal, heal, "no pub/sub connection named " + clientName)
                : new FaultInjector.Injected(fault, start, heal, heal, null);
    }

    /**
     * Refuses SUBSCRIBE to the default user ({@code ACL SETUSER default -subscribe}; PUBLISH, also from scripts, keeps
     * working) and kills this run's pub/sub connections, so their new subscriptions are refused with NOPERM; after
     * one TTL {@code +subscribe} heals. When no pub/sub connection exists at the start, the fault still stands:
     * the next waiter's SUBSCRIBE is refused. ({@code resetchannels} would be harsher: on Redis 7.0 it also disconnects every
     * subscriber at once and makes a script's PUBLISH fail after its earlier writes.)
     */
    FaultInjector.Injected subscribeRefused(Fault fault) {
        long start = System.nanoTime();
        server.command("ACL", "SETUSER", "default", "-subscribe");
        try {
            killPubsub();
            FaultInjector.sleep(ttl);
        } finally {
            server.command("ACL", "SETUSER", "default", "+subscribe");
        }
        long heal = System.nanoTime();
        return new FaultInjector.Injected(fault, start, heal, heal, null);
    }

    private int killPubsub() {
        int killed = 0;
        for (String line : admin.clientList().split("\n")) {
            if (line.contains(" name=" + clientName + " ") && (count(line, "sub") > 0 || count(line, "psub") > 0)) {
                String id = field(line, "id");
                if (id != null) {
                    killed += admin.clientKill(KillArgs.Builder.id(Long.parseLong(id)))
                            .intValue();
                }
            }
        }
        return killed;
    }

    private String configGet(String name) {
        Object reply = server.command("CONFIG", "GET", name);
        List<?> pair = (List<?>) reply;
        return String.valueOf(pair.get(1));
    }

    static long infoField(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Long.parseLong(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("INFO has no " + name);
    }

    private static long count(String clientLine, String name) {
        String value = field(clientLine, name);
        return value == null ? 0 : Long.parseLong(value);
    }

    static String field(String clientLine, String name) {
        for (String part : clientLine.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        return null;
    }
}
