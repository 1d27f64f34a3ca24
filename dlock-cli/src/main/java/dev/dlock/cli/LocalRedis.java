package dev.dlock.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A throwaway {@code redis-server} for the demo, started the way the testkit does: the binary from
 * {@code PATH}, a free loopback port, no persistence, killed when the demo ends or the JVM exits.
 */
final class LocalRedis implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Thread killAtExit;

    private LocalRedis(Process process, int port) {
        this.process = process;
        this.port = port;
        this.killAtExit = new Thread(process::destroyForcibly, "dlock-demo-redis-killer");
        Runtime.getRuntime().addShutdownHook(killAtExit);
    }

    /** Starts redis-server from PATH, or throws a CliFailure (exit 69) saying why it cannot. */
    static LocalRedis start() {
        Path binary = onPath("redis-server")
                .orElseThrow(() -> new CliFailure(
                        ExitCodes.UNAVAILABLE,
                        "no redis-server on PATH to start a throwaway one; install Redis or pass --redis URI"));
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder(
                        binary.toString(),
                        "--port",
                        Integer.toString(port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--protected-mode",
                        "yes")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.UNAVAILABLE, "cannot start " + binary + ": " + e.getMessage(), e);
        }
        LocalRedis redis = new LocalRedis(process, port);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!redis.answersPing()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                redis.close();
                throw new CliFailure(ExitCodes.UNAVAILABLE, binary + " did not come up on port " + port);
            }
            sleep(50);
        }
        return redis;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor();
            Runtime.getRuntime().removeShutdownHook(killAtExit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs anyway
        }
    }

    private boolean answersPing() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            socket.setSoTimeout(500);
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[7];
            int n = in.read(reply);
            return n > 0 && new String(reply, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG");
        } catch (IOException e) {
            return false;
        }
    }

    static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new CliFailure(ExitCodes.UNAVAILABLE, "no free local port for a throwaway redis-server", e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
