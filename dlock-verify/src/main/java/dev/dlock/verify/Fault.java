package dev.dlock.verify;

/** The faults a scenario can script; {@link #serverSide} ones signal or restart a redis-server this run started. */
enum Fault {
    HOLDER_KILL("SIGKILL of a holder JVM while it holds the lock", false),
    HOLDER_PAUSE("SIGSTOP of a holder JVM for 2x TTL while it holds the lock, then SIGCONT", false),
    SERVER_PAUSE_SHORT("SIGSTOP of redis-server for 0.5x TTL", true),
    SERVER_PAUSE_LONG("SIGSTOP of redis-server for 3x TTL", true),
    PROXY_FREEZE("TCP proxy of one client frozen for 3x TTL while that client holds the lock", false),
    PROXY_LATENCY("TCP proxy of one client adds 0.1x TTL per chunk for 2x TTL", false),
    CLIENT_KILL("CLIENT KILL of this run's connections, 3 times 0.1x TTL apart, during acquires", false),
    DEBUG_SLEEP("DEBUG SLEEP of 2x TTL on the server", true),
    RESTART_AOF("SIGKILL and restart of redis-server with AOF (appendfsync always)", true),
    RESTART_NO_PERSISTENCE("SIGKILL and restart of redis-server without persistence", true);

    final String description;
    final boolean serverSide;

    Fault(String description, boolean serverSide) {
        this.description = description;
        this.serverSide = serverSide;
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
