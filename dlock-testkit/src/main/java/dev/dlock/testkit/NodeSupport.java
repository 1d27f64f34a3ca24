package dev.dlock.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What {@link SentinelSetup}, {@link ClusterSetup} and {@link IndependentMasters} share: starting a topology so that a
 * failure half-way closes what was started, closing many nodes, polling until a condition holds, and reading
 * {@code INFO}. Stateless and thread-safe.
 */
final class NodeSupport {

    static final String HOST = RedisLauncher.HOST;

    private static final Duration POLL = Duration.ofMillis(25);

    private NodeSupport() {}

    /**
     * Runs {@code start} on a new, empty {@code topology}; if it throws, closes the topology (stopping every process
     * it had started and deleting their directories) before rethrowing.
     */
    static <T extends AutoCloseable> T startOrClose(T topology, Consumer<T> start) {
        try {
            start.accept(topology);
            return topology;
        } catch (RuntimeException | Error e) {
            try {
                topology.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** Closes every server, even when some fail to close; rethrows the first failure with the others suppressed. */
    static void closeAll(List<RedisServer> servers) {
        RuntimeException failure = null;
        for (RedisServer server : servers) {
            try {
                server.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A server that is running and not paused, so that a command to it gets an answer. */
    static boolean isUp(RedisServer server) {
        return server.isRunning() && !server.isPaused();
    }

    /**
     * Polls {@code probe} until it returns a non-null value, every 25 ms; a probe that throws counts as "not yet".
     *
     * @param timeout how long to poll (not scaled)
     * @param what what is awaited, for the failure message
     * @throws IllegalStateException on timeout, naming the last probe failure
     */
    static <T> T await(Duration timeout, String what, Supplier<T> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException last = null;
        while (true) {
            try {
                T value = probe.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (System.nanoTime() - deadline >= 0) {
                IllegalStateException failure = new IllegalStateException("timed out after " + timeout + " waiting for "
                        + what + (last == null ? "" : "; last failure: " + last));
                if (last != null) {
                    failure.addSuppressed(last);
                }
                throw failure;
            }
            RedisLauncher.sleep(POLL);
        }
    }

    /** {@code INFO section} as a map of its {@code key:value} lines. */
    static Map<String, String> info(RedisServer server, String section) {
        Map<String, String> fields = new HashMap<>();
        for (String line : String.valueOf(server.command("INFO", section)).split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1));
            }
        }
        return fields;
    }

    /** A flat RESP array of alternating names and values ({@code SENTINEL MASTER}, ...) as a map. */
    static Map<String, String> pairs(Object reply) {
        List<?> items = (List<?>) reply;
        Map<String, String> fields = new HashMap<>();
        for (int i = 0; i + 1 < items.size(); i += 2) {
            fields.put(String.valueOf(items.get(i)), String.valueOf(items.get(i + 1)));
        }
        return fields;
    }

    /** The server of {@code servers} listening on {@code port}. */
    static RedisServer byPort(List<RedisServer> servers, int port) {
        for (RedisServer server : servers) {
            if (server.port() == port) {
                return server;
            }
        }
        throw new IllegalStateException("no node of this topology listens on " + HOST + ":" + port + "; nodes: "
                + servers.stream().map(s -> Integer.toString(s.port())).collect(Collectors.joining(",")));
    }

    /** {@code scheme://127.0.0.1:p1,127.0.0.1:p2,...}. */
    static String uri(String scheme, List<RedisServer> servers) {
        List<String> addresses = new ArrayList<>();
        for (RedisServer server : servers) {
            addresses.add(HOST + ":" + server.port());
        }
        return scheme + "://" + String.join(",", addresses);
    }

    /** Arguments for data nodes of a replicated topology: a full sync starts at once and needs no disk. */
    static String[] replicationArgs() {
        return new String[] {"--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0"};
    }
}
