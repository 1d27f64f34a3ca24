package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of the server's per-command call counts ({@code INFO commandstats}) and CPU time ({@code INFO cpu}).
 * Redis 7 counts commands run inside Lua scripts in commandstats too, so {@link Delta#total()} is every command the
 * server executed; {@link Delta#topLevel(CommandOrigins)} splits out what clients sent.
 */
record RedisStats(Map<String, Long> calls, double cpuSeconds) {

    /** Our own {@code INFO} calls are not part of any measurement. */
    private static final String OURS = "info";

    /** A replica's acknowledgements of the replication stream: server work, but never a client's command. */
    private static final String REPLICATION = "replconf";

    /** The sum over several servers (a topology's masters): calls by command, and CPU. */
    static RedisStats read(List<RedisServer> servers) {
        Map<String, Long> calls = new HashMap<>();
        double cpu = 0;
        for (RedisServer server : servers) {
            RedisStats one = read(server);
            one.calls.forEach((name, count) -> calls.merge(name, count, Long::sum));
            cpu += one.cpuSeconds;
        }
        return new RedisStats(calls, cpu);
    }

    static RedisStats read(RedisServer server) {
        String commandStats = (String) server.command("INFO", "commandstats");
        String cpu = (String) server.command("INFO", "cpu");
        Map<String, Long> calls = new HashMap<>();
        for (String line : commandStats.split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                int colon = line.indexOf(':');
                String name = line.substring("cmdstat_".length(), colon);
                int from = line.indexOf("calls=", colon) + "calls=".length();
                int to = line.indexOf(',', from);
                calls.put(name, Long.parseLong(line.substring(from, to)));
            }
        }
        return new RedisStats(calls, field(cpu, "used_cpu_sys") + field(cpu, "used_cpu_user"));
    }

    private static double field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new IllegalStateException("INFO has no " + name);
    }

    Delta since(RedisStats before) {
        Map<String, Long> delta = new HashMap<>();
        calls.forEach((name, count) -> {
            long d = count - before.calls.getOrDefault(name, 0L);
            if (d > 0 && !name.equals(OURS)) {
                delta.put(name, d);
            }
        });
        return new Delta(delta, cpuSeconds - before.cpuSeconds);
    }

    /** What the server did between two snapshots. */
    record Delta(Map<String, Long> calls, double cpuSeconds) {
        long total() {
            return calls.values().stream().mapToLong(Long::longValue).sum();
        }

        /**
         * Commands sent by clients: each command's calls weighted by its share of top-level calls; a replica's
         * {@code REPLCONF ACK}s (which {@code MONITOR} does not show) are not a client's.
         */
        double topLevel(CommandOrigins origins) {
            double sum = 0;
            for (Map.Entry<String, Long> e : calls.entrySet()) {
                sum += e.getValue() * clientShare(origins, e.getKey());
            }
            return sum;
        }

        /** Client commands per {@code per} by command name, largest first, as {@code "evalsha 2.00, ..."}. */
        String topLevelMix(CommandOrigins origins, long per) {
            if (per == 0) {
                return "";
            }
            return calls.entrySet().stream()
                    .map(e -> Map.entry(e.getKey(), e.getValue() * clientShare(origins, e.getKey()) / per))
                    .filter(e -> e.getValue() >= 0.005)
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                    .map(e -> String.format(java.util.Locale.ROOT, "%s %.2f", e.getKey(), e.getValue()))
                    .collect(java.util.stream.Collectors.joining(", "));
        }

        private static double clientShare(CommandOrigins origins, String name) {
            return name.equals(REPLICATION) ? 0 : origins.topLevelShare(name);
        }

        /** Calls of script commands ({@code EVAL}, {@code EVALSHA}, {@code FCALL} and their read-only forms). */
        long scripts() {
            long sum = 0;
            for (Map.Entry<String, Long> e : calls.entrySet()) {
                if (e.getKey().startsWith("eval") || e.getKey().startsWith("fcall")) {
                    sum += e.getValue();
                }
            }
            return sum;
        }

        /** Calls whose name is one of {@code names}. */
        long of(String... names) {
            long sum = 0;
            for (String name : names) {
                sum += calls.getOrDefault(name, 0L);
            }
            return sum;
        }
    }
}
