package dev.dlock.bench;

import dev.dlock.testkit.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The machine's ceiling: {@code redis-benchmark} (found beside {@code redis-server}) against the same server. */
final class BenchmarkCeiling {
    private static final Pattern RESULT = Pattern.compile("([A-Z_]+): ([0-9.]+) requests per second");

    private BenchmarkCeiling() {}

    /** One test's requests per second at one client count. */
    record Result(String test, int clients, double requestsPerSecond) {}

    static List<Result> run(RedisServer server, int requests) {
        List<Result> results = new ArrayList<>();
        for (int clients : new int[] {1, 16}) {
            String output = exec(server, clients, requests);
            Matcher m = RESULT.matcher(output);
            while (m.find()) {
                results.add(new Result(m.group(1), clients, Double.parseDouble(m.group(2))));
            }
        }
        return results;
    }

    private static String exec(RedisServer server, int clients, int requests) {
        Path sibling = server.binary().resolveSibling("redis-benchmark");
        String binary = sibling.toFile().canExecute() ? sibling.toString() : "redis-benchmark";
        ProcessBuilder builder = new ProcessBuilder(
                        binary,
                        "-h",
                        server.host(),
                        "-p",
                        Integer.toString(server.port()),
                        "-c",
                        Integer.toString(clients),
                        "-n",
                        Integer.toString(requests),
                        "-t",
                        "ping,set",
                        "-q")
                .redirectErrorStream(true);
        try {
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor();
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + binary, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running redis-benchmark", e);
        }
    }
}
