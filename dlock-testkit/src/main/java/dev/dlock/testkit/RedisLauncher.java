package dev.dlock.testkit;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntSupplier;

/**
 * Spawns one {@code redis-server} process for a {@link RedisServer} and waits until it answers PING; retries with a
 * new free port when binding fails. Immutable and thread-safe; callers serialize launches.
 */
final class RedisLauncher {

    static final String HOST = "127.0.0.1";

    private static final int SHARED_REDIS_PORT = 6379;
    private static final int CLUSTER_BUS_OFFSET = 10_000;
    private static final int START_ATTEMPTS = 5;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

    /** A started, ready process and the port it listens on. */
    record Launched(Process process, int port) {}

    private enum Readiness {
        READY,
        EXITED,
        FOREIGN,
        TIMEOUT
    }

    private final Path binary;
    private final String version;
    private final boolean aof;
    private final String password;
    private final List<String> extraArgs;
    private final Path dataDir;
    private final List<String> leadingArgs;
    private final IntSupplier portPicker;

    /**
     * @param leadingArgs placed right after the binary, before every option (a config file, {@code --sentinel})
     * @param portPicker picks the candidate port of a first start and of each retry after a bind conflict
     */
    RedisLauncher(
            Path binary,
            String version,
            boolean aof,
            String password,
            List<String> extraArgs,
            Path dataDir,
            List<String> leadingArgs,
            IntSupplier portPicker) {
        this.binary = binary;
        this.version = version;
        this.aof = aof;
        this.password = password;
        this.extraArgs = List.copyOf(extraArgs);
        this.dataDir = dataDir;
        this.leadingArgs = List.copyOf(leadingArgs);
        this.portPicker = portPicker;
    }

    /**
     * Launches on {@code fixedPort}, or on a fresh free port when it is 0 (retrying with other ports on bind
     * conflicts); a fixed port is retried a few times as well, after a short pause.
     */
    Launched launch(int fixedPort) {
        StringBuilder conflicts = new StringBuilder();
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            int candidate = fixedPort != 0 ? fixedPort : portPicker.getAsInt();
            long logOffset = size(logFile());
            long stdoutOffset = size(stdoutFile());
            Process started = spawn(candidate);
            Readiness readiness = awaitReady(started, candidate);
            if (readiness == Readiness.READY) {
                return new Launched(started, candidate);
            }
            Signals.killAndWait(started);
            String log = readFrom(logFile(), logOffset) + readFrom(stdoutFile(), stdoutOffset);
            if (readiness == Readiness.FOREIGN || log.contains("Address already in use")) {
                conflicts.append(' ').append(candidate);
                if (fixedPort != 0) {
                    sleep(Duration.ofMillis(200));
                }
                continue;
            }
            throw new IllegalStateException("redis-server " + version + " on port " + candidate
                    + (readiness == Readiness.TIMEOUT
                            ? " did not answer PING within " + Timing.scaled(READY_TIMEOUT)
                            : " exited with code " + started.exitValue())
                    + "; command: " + String.join(" ", command(candidate))
                    + "\n--- tail of " + logFile() + " ---\n" + tail(log));
        }
        throw new IllegalStateException(
                "redis-server could not bind after " + START_ATTEMPTS + " attempts; ports in use:" + conflicts);
    }

    List<String> command(int candidate) {
        List<String> command = new ArrayList<>(List.of(binary.toString()));
        command.addAll(leadingArgs);
        command.addAll(List.of("--port", Integer.toString(candidate)));
        command.addAll(List.of("--bind", HOST, "--dir", dataDir.toString(), "--daemonize", "no"));
        command.addAll(List.of("--logfile", logFile().toString(), "--protected-mode", "no"));
        if (aof) {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
        } else {
            command.addAll(List.of("--appendonly", "no", "--save", ""));
        }
        if (password != null) {
            command.addAll(List.of("--requirepass", password));
        }
        if (RedisBinary.major(version) >= 7) {
            command.addAll(List.of("--enable-debug-command", "yes"));
        }
        command.addAll(extraArgs);
        return command;
    }

    private Process spawn(int candidate) {
        ProcessBuilder builder = new ProcessBuilder(command(candidate))
                .directory(dataDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(stdoutFile().toFile()));
        try {
            Process started = builder.start();
            ProcessReaper.track(started);
            started.getOutputStream().close();
            return started;
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + binary, e);
        }
    }

    private Readiness awaitReady(Process started, int candidate) {
        long deadline = System.nanoTime() + Timing.scaled(READY_TIMEOUT).toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!started.isAlive()) {
                return Readiness.EXITED;
            }
            try (RespConnection connection = RespConnection.open(HOST, candidate, password, PROBE_TIMEOUT)) {
                if ("PONG".equals(connection.call("PING"))) {
                    Object info = connection.call("INFO", "server");
                    boolean ours = String.valueOf(info).contains("process_id:" + started.pid() + "\r\n");
                    return ours ? Readiness.READY : Readiness.FOREIGN;
                }
            } catch (IOException | RedisErrorReply e) {
                // not ready yet (refused, LOADING, ...)
            }
            sleep(Duration.ofMillis(20));
        }
        return started.isAlive() ? Readiness.TIMEOUT : Readiness.EXITED;
    }

    Path logFile() {
        return dataDir.resolve("redis.log");
    }

    private Path stdoutFile() {
        return dataDir.resolve("stdout.log");
    }

    /** A free loopback port, never the shared Redis port 6379. */
    static int freePort() {
        try {
            for (int i = 0; i < 20; i++) {
                try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
                    int candidate = socket.getLocalPort();
                    if (candidate != SHARED_REDIS_PORT) {
                        return candidate;
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not find a free port on " + HOST, e);
        }
        throw new IllegalStateException("could not find a free port on " + HOST);
    }

    /**
     * A free loopback port {@code p} whose cluster bus port {@code p + 10000} is free as well, both below the kernel's
     * ephemeral range (32768 and up on Linux), so that neither an outgoing connection nor the bus port overflowing
     * 65535 can take the bus port away; Redis 6.2 has no {@code cluster-port} option to place it elsewhere.
     */
    static int freePortWithClusterBus() {
        for (int i = 0; i < 200; i++) {
            int candidate = ThreadLocalRandom.current().nextInt(10_001, 22_768);
            if (isFree(candidate) && isFree(candidate + CLUSTER_BUS_OFFSET)) {
                return candidate;
            }
        }
        throw new IllegalStateException("could not find a free port pair p, p+10000 on " + HOST);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }

    private static long size(Path file) {
        try {
            return Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }

    private static String readFrom(Path file, long offset) {
        try {
            if (!Files.exists(file)) {
                return "";
            }
            byte[] bytes = Files.readAllBytes(file);
            int from = (int) Math.min(offset, bytes.length);
            return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(could not read " + file + ": " + e + ")\n";
        }
    }

    private static String tail(String text) {
        List<String> lines = Arrays.asList(text.split("\n"));
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for redis-server", e);
        }
    }
}
