package dev.dlock.verify;

import java.util.Locale;

/**
 * The faults a scenario can script; {@link #serverSide} ones signal, restart or reconfigure a redis-server this run
 * started. A {@link #shortLived} fault stops nobody: the lock must be served normally again as soon as it heals. The
 * {@code FAILOVER_*} faults act on the scenario's own Sentinel deployment ({@link FailoverFaults}), never on the run's
 * servers, so they are not server-side: they run with {@code --redis} too.
 */
enum Fault {
    HOLDER_KILL("SIGKILL of a holder JVM while it holds the lock", false, false),
    HOLDER_PAUSE("SIGSTOP of a holder JVM for 2x TTL while it holds the lock, then SIGCONT", false, false),
    SERVER_PAUSE_SHORT("SIGSTOP of redis-server for 0.5x TTL", true, false),
    SERVER_PAUSE_LONG("SIGSTOP of redis-server for 3x TTL", true, false),
    PROXY_FREEZE("TCP proxy of one client frozen for 3x TTL while that client holds the lock", false, false),
    PROXY_LATENCY("TCP proxy of one client adds 0.1x TTL per chunk for 2x TTL", false, false),
    CLIENT_KILL("CLIENT KILL of this run's connections, 3 times 0.1x TTL apart, during acquires", false, true),
    DEBUG_SLEEP("DEBUG SLEEP of 2x TTL on the server", true, false),
    RESTART_AOF("SIGKILL and restart of redis-server with AOF (appendfsync always)", true, false),
    RESTART_NO_PERSISTENCE("SIGKILL and restart of redis-server without persistence", true, false),
    SCRIPT_FLUSH("SCRIPT FLUSH on the lock server, 3 times 0.1x TTL apart, during acquires", true, true),
    OOM("lock server out of memory (maxmemory below its use, noeviction) for 0.5x TTL, then healed", true, true),
    PUBSUB_KILL("CLIENT KILL of this run's pub/sub connections, 3 times 0.1x TTL apart, during waits", false, true),
    SUBSCRIBE_REFUSED(
            "SUBSCRIBE refused by ACL (-subscribe) for 1x TTL, this run's pub/sub connections killed at its start",
            true,
            true),
    FAILOVER_KILL(
            "SIGKILL of the Sentinel master, failover to its replica, the old master rejoined as a replica",
            false,
            false),
    FAILOVER_PAUSE(
            "SIGSTOP of the Sentinel master until the sentinels fail over, then SIGCONT and rejoined as a replica",
            false,
            false),
    FAILOVER_HOLD_BACK(
            "replica held back while a fixed-lease holder takes the lock, then the master killed, failover, rejoin",
            false,
            false),
    FAILOVER_PARTITION(
            "Sentinel master cut off (proxies) from sentinels, replica and clients but the minority one; failover;"
                    + " heal; rejoined as a replica",
            false,
            false),
    SPLIT_LAG(
            "one client's command reply and pub/sub messages delivered late apart (proxy): the reply of a queued try"
                    + " 1.15x the lease late, its grant 1.5x",
            false,
            false),
    PART_FORCED(
            "force-release of the name a multi-lock holds while it waits for the next; another client takes it",
            false,
            false),
    PART_DELETED(
            "the key of the name a multi-lock holds deleted while it waits for the next (failover or eviction"
                    + " stand-in); another client takes it",
            false,
            false),
    FENCE_WRITE_FAILED(
            "a Redlock acquire's fencing write-back to one node fails once (its connection dropped by the proxy)",
            false,
            false),
    NODE_RESTART_EMPTY("a Redlock node SIGKILLed and restarted without persistence (empty)", false, false),
    STRAY_HOLD("another owner holds the lock on one Redlock node for a moment", false, false),
    /**
     * Not scheduled: seen. The sentinels of a failover scenario failed over on their own (a master deemed down on a
     * loaded host); recorded from the heal before it to its own, since when it happened in between is not known.
     */
    FAILOVER_UNSCHEDULED(
            "a failover the sentinels made on their own (a master deemed down on a loaded host), seen, not injected",
            false,
            false);

    final String description;
    final boolean serverSide;
    final boolean shortLived;

    Fault(String description, boolean serverSide, boolean shortLived) {
        this.description = description;
        this.serverSide = serverSide;
        this.shortLived = shortLived;
    }

    String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static Fault fromLabel(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
