package dev.dlock.verify;

import dev.dlock.testkit.JvmProcess;
import dev.dlock.testkit.RedisServer;
import io.lettuce.core.KillArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Injects one scripted fault and reports when it started, when it healed and from when the lock must be free again.
 * Signals only processes this run started: the {@link RedisServer}s it launched (absent with {@code --redis}) and its
 * own holder JVMs; {@code CLIENT KILL} targets only connections carrying this run's client name. The faults that make
 * the server refuse or forget something are in {@link ServiceFaults}. Used by one thread.
 */
final class FaultInjector {

    /**
     * The outcome of one injection.
     *
     * @param fault the fault
     * @param start when it was injected
     * @param heal when it healed
     * @param livenessFrom from when the lock must be taken again within TTL + 1 s
     * @param skipped why it was not injected, or {@code null}
     */
    record Injected(Fault fault, long start, long heal, long livenessFrom, String skipped) {}

    private final RedisServer server;
    private final RedisCommands<String, String> admin;
    private final TcpProxy proxy;
    private final Proxied proxied;
    private final List<JvmProcess> holders;
    private final Supplier<JvmProcess> replacement;
    private final String clientName;
    private final Duration ttl;
    private final ServiceFaults service;
    private final String fillerKey;
    private final FailoverFaults failover;
    private int nextHolder;
    private String holdFailure = "";

    FaultInjector(
            RedisServer server,
            RedisCommands<String, String> admin,
            Proxied proxied,
            List<JvmProcess> holders,
            Supplier<JvmProcess> replacement,
            String clientName,
            Duration ttl,
            String keyPrefix,
            FailoverFaults failover) {
        this.server = server;
        this.admin = admin;
        this.proxied = proxied;
        this.proxy = proxied.proxy();
        this.holders = holders;
        this.replacement = replacement;
        this.clientName = clientName;
        this.ttl = ttl;
        this.service = new ServiceFaults(server, admin, clientName, ttl);
        this.fillerKey = keyPrefix + ":oom-filler";
        this.failover = failover;
    }

    /**
     * The worker the faults stall in its hold: the client behind the proxy, or the long fixed-lease holder of a
     * failover scenario.
     *
     * @param proxy the proxy between it and Redis, or {@code null} in a failover scenario
     * @param worker its worker, or {@code null} when the scenario has none
     * @param says the lines its worker announces
     */
    record Proxied(TcpProxy proxy, Worker worker, BlockingQueue<String> says) {
        /** Whether the worker reported holding within {@code timeout}; refused acquires are tried again. */
        boolean holding(Duration stall, Duration timeout) {
            long until = System.nanoTime() + timeout.toNanos();
            String line;
            do {
                line = heldOrRefused(stall, null, Duration.ofNanos(Math.max(0, until - System.nanoTime())));
            } while (line != null && !line.startsWith("HOLDING") && System.nanoTime() < until);
            return line != null && line.startsWith("HOLDING");
        }

        /**
         * Asks the worker to stall its next hold (with a fixed {@code lease}, or its own lease when {@code null}) and
         * returns its first announcement: {@code HOLDING <token>}, {@code REFUSED <error>} (its next acquire failed
         * with an error), or {@code null} if none came within {@code timeout}.
         */
        String heldOrRefused(Duration stall, Duration lease, Duration timeout) {
            if (worker == null) {
                return null;
            }
            says.clear();
            if (lease == null) {
                worker.stallNextHold(stall);
            } else {
                worker.stallNextHold(stall, lease);
            }
            try {
                return says.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    Injected inject(Fault fault) {
        if (fault.serverSide && server == null) {
            return skipped(fault, "server fault skipped: --redis points at a server this run did not start");
        }
        return switch (fault) {
            case HOLDER_KILL -> holder(fault, true);
            case HOLDER_PAUSE -> holder(fault, false);
            case SERVER_PAUSE_SHORT -> serverPause(fault, ttl.dividedBy(2));
            case SERVER_PAUSE_LONG -> serverPause(fault, ttl.multipliedBy(3));
            case PROXY_FREEZE -> {
                // freeze while the proxied client holds the lock: a partitioned holder, not just a partitioned waiter
                if (!proxied.holding(ttl.dividedBy(5), ttl.multipliedBy(10).plusSeconds(10))) {
                    yield skipped(fault, "the proxied client never held the lock");
                }
                long start = System.nanoTime();
                proxy.freeze(true);
                sleep(ttl.multipliedBy(3));
                proxy.freeze(false);
                long heal = System.nanoTime();
                yield new Injected(fault, start, heal, heal, null);
            }
            case PROXY_LATENCY -> {
                long start = System.nanoTime();
                proxy.latency(ttl.dividedBy(10));
                sleep(ttl.multipliedBy(2));
                proxy.latency(Duration.ZERO);
                long heal = System.nanoTime();
                yield new Injected(fault, start, heal, heal, null);
            }
            case CLIENT_KILL -> clientKill(fault);
            case DEBUG_SLEEP -> debugSleep(fault);
            case RESTART_AOF, RESTART_NO_PERSISTENCE -> restart(fault);
            case SCRIPT_FLUSH -> service.scriptFlush(fault);
            case OOM -> service.outOfMemory(fault, fillerKey);
            case PUBSUB_KILL -> service.pubsubKill(fault);
            case SUBSCRIBE_REFUSED -> service.subscribeRefused(fault);
            case FAILOVER_KILL, FAILOVER_PAUSE, FAILOVER_HOLD_BACK, FAILOVER_PARTITION ->
                failover == null
                        ? skipped(fault, "needs a failover scenario's own Sentinel deployment")
                        : failover.inject(fault, proxied);
            // a scripted scenario's faults are timed to its clients' commands by the script itself
            case SPLIT_LAG, PART_FORCED, PART_DELETED, FENCE_WRITE_FAILED, NODE_RESTART_EMPTY, STRAY_HOLD ->
                skipped(fault, "injected by its scripted scenario only");
            case FAILOVER_UNSCHEDULED -> skipped(fault, "seen, never injected: the sentinels make it on their own");
        };
    }

    /**
     * Asks the next live holder JVM to stall inside its critical section and waits until it says it holds the lock,
     * so the fault hits a real holder; returns {@code null} when no holder JVM could be brought there.
     */
    private JvmProcess holding(Duration stall) {
        while (nextHolder < holders.size()) {
            JvmProcess candidate = holders.get(nextHolder);
            if (!candidate.isAlive()) {
                nextHolder++;
                continue;
            }
            candidate.send("stall " + stall.toMillis());
            try {
                candidate.awaitLine("HOLDING", ttl.multipliedBy(10).plusSeconds(10));
                return candidate;
            } catch (IllegalStateException e) {
                holdFailure = firstLine(e.getMessage());
                return null;
            }
        }
        holdFailure = "no live holder JVM left";
        return null;
    }

    private Injected restart(Fault fault) {
        // a restart while a holder JVM holds the lock: with AOF the lock must survive, without it is lost
        JvmProcess holder = holders.isEmpty() ? null : holding(ttl.dividedBy(2));
        if (!holders.isEmpty() && holder == null) {
            return skipped(fault, "holder JVM never reported holding the lock: " + holdFailure);
        }
        long start = System.nanoTime();
        server.restart();
        long heal = System.nanoTime();
        return new Injected(fault, start, heal, heal, null);
    }

    private Injected holder(Fault fault, boolean kill) {
        JvmProcess holder = holding(kill ? ttl : ttl.dividedBy(5));
        if (holder == null) {
            return skipped(fault, "holder JVM never reported holding the lock: " + holdFailure);
        }
        long start = System.nanoTime();
        if (kill) {
            holder.kill();
            nextHolder++;
            Injected done = new Injected(fault, start, start, start, null);
            replacement.get();
            return done;
        }
        holder.pause();
        sleep(ttl.multipliedBy(2));
        holder.resume();
        return new Injected(fault, start, System.nanoTime(), start, null);
    }

    private Injected serverPause(Fault fault, Duration duration) {
        long start = System.nanoTime();
        server.pause();
        sleep(duration);
        server.resume();
        long heal = System.nanoTime();
        return new Injected(fault, start, heal, heal, null);
    }

    private Injected clientKill(Fault fault) {
        long start = System.nanoTime();
        int killed = 0;
        for (int round = 0; round < 3; round++) {
            for (String line : admin.clientList().split("\n")) {
                if (line.contains(" name=" + clientName + " ")) {
                    String id = ServiceFaults.field(line, "id");
                    if (id != null) {
                        killed += admin.clientKill(KillArgs.Builder.id(Long.parseLong(id)))
                                .intValue();
                    }
                }
            }
            sleep(ttl.dividedBy(10));
        }
        long heal = System.nanoTime();
        return killed == 0
                ? skipped(fault, "no connection named " + clientName + " found")
                : new Injected(fault, start, heal, heal, null);
    }

    private Injected debugSleep(Fault fault) {
        double seconds = ttl.multipliedBy(2).toMillis() / 1000.0;
        long start = System.nanoTime();
        try {
            server.command(ttl.multipliedBy(4).plusSeconds(5), "DEBUG", "SLEEP", Double.toString(seconds));
        } catch (RuntimeException e) {
            return skipped(fault, "DEBUG SLEEP refused (" + firstLine(e.getMessage()) + ")");
        }
        long heal = System.nanoTime();
        return new Injected(fault, start, heal, heal, null);
    }

    static Injected skipped(Fault fault, String why) {
        long now = System.nanoTime();
        return new Injected(fault, now, now, now, why);
    }

    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    static void sleep(Duration duration) {
        try {
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
