package dev.dlock.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Which share of each command's calls clients sent themselves, as opposed to Lua scripts. commandstats cannot tell
 * (Redis 7 counts both), so a short {@code MONITOR} sample taken during a warm-up reads the origin of every call:
 * {@code [0 lua]} for a script's, {@code [0 host:port]} for a client's. A command this sample did not see is looked up
 * in everything sampled for the same peer before (a script's rare branch, such as a busy try, may be missing from one
 * short sample); one never seen at all counts as top-level.
 */
final class CommandOrigins {
    private static final Map<String, CommandOrigins> EARLIER = new java.util.concurrent.ConcurrentHashMap<>();

    private final Map<String, long[]> counts = new HashMap<>(); // name -> {top-level, in scripts}
    private CommandOrigins earlier;

    /**
     * Samples the server's commands for {@code millis}.
     *
     * @param host the Redis host
     * @param port the Redis port
     * @param millis how long to sample
     * @param topology where the peer runs (its scripts and commands differ by topology)
     * @param peer the peer whose commands these are
     * @return the origins seen
     */
    static CommandOrigins sample(String host, int port, long millis, Topology topology, Peer peer) {
        CommandOrigins origins = new CommandOrigins();
        CommandOrigins all = EARLIER.computeIfAbsent(topology + "/" + peer, p -> new CommandOrigins());
        synchronized (all) {
            origins.earlier = all.copy();
        }
        long end = System.nanoTime() + millis * 1_000_000L;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 2000);
            socket.setSoTimeout(100);
            OutputStream out = socket.getOutputStream();
            out.write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            while (System.nanoTime() - end < 0) {
                String line;
                try {
                    line = in.readLine();
                } catch (SocketTimeoutException quiet) {
                    continue;
                }
                if (line == null) {
                    break;
                }
                origins.count(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("MONITOR on port " + port + " failed", e);
        }
        synchronized (all) {
            origins.counts.forEach((name, c) -> {
                long[] total = all.counts.computeIfAbsent(name, n -> new long[2]);
                total[0] += c[0];
                total[1] += c[1];
            });
        }
        return origins;
    }

    private CommandOrigins copy() {
        CommandOrigins copy = new CommandOrigins();
        counts.forEach((name, c) -> copy.counts.put(name, c.clone()));
        return copy;
    }

    /** Parses one MONITOR line: {@code +1700000000.123456 [0 lua] "set" "k" "v"}. */
    void count(String line) {
        int open = line.indexOf('[');
        int close = line.indexOf(']', open);
        int quote = line.indexOf('"', close);
        if (open < 0 || close < 0 || quote < 0) {
            return; // +OK and anything else that is not a command
        }
        int end = line.indexOf('"', quote + 1);
        if (end < 0) {
            return;
        }
        String name = line.substring(quote + 1, end).toLowerCase(java.util.Locale.ROOT);
        boolean lua = line.substring(open, close).endsWith(" lua");
        counts.computeIfAbsent(name, n -> new long[2])[lua ? 1 : 0]++;
    }

    /**
     * Returns the share of calls of a commandstats entry that clients sent; {@code client|setname} is looked up as
     * {@code client}.
     */
    double topLevelShare(String commandStatsName) {
        int bar = commandStatsName.indexOf('|');
        String name = bar < 0 ? commandStatsName : commandStatsName.substring(0, bar);
        long[] c = counts.get(name);
        if (c == null || c[0] + c[1] == 0) {
            return earlier != null ? earlier.topLevelShare(name) : 1.0;
        }
        return (double) c[0] / (c[0] + c[1]);
    }
}
