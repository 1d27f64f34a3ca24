package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.testkit.Timing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** The packaged jar run as a real process: {@code java -jar target/dlock-cli-<version>.jar ...}. */
final class Cli implements AutoCloseable {
    static final Path JAR = Path.of(System.getProperty("dlock.cli.jar", "target/dlock-cli.jar"));

    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private Cli(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    static Cli start(Map<String, String> env, String... args) {
        assertThat(JAR).as("the packaged jar (run the ITs after package)").isRegularFile();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-jar",
                JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("DLOCK_REDIS_URL"); // never fall back to a developer's Redis
        builder.environment().putAll(env);
        return start(builder);
    }

    /**
     * Starts a command (such as a launcher script) with exactly the environment {@code env}, nothing inherited.
     *
     * @param env the whole environment
     */
    static Cli startWithOnly(Map<String, String> env, List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().putAll(env);
        return start(builder);
    }

    private static Cli start(ProcessBuilder builder) {
        try {
            Path out = Files.createTempFile("dlock-cli-out", ".txt");
            Path err = Files.createTempFile("dlock-cli-err", ".txt");
            out.toFile().deleteOnExit(); // read until the test JVM ends, by then no longer
            err.toFile().deleteOnExit();
            builder.redirectOutput(out.toFile())
                    .redirectError(err.toFile())
                    .redirectInput(ProcessBuilder.Redirect.PIPE);
            return new Cli(builder.start(), out, err);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Cli start(String... args) {
        return start(Map.of(), args);
    }

    /** Runs to completion (bounded by a scaled timeout) and returns the finished process. */
    static Cli run(String... args) {
        Cli cli = start(args);
        cli.waitFor(Duration.ofSeconds(60));
        return cli;
    }

    int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(Timing.scaled(timeout).toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("dlock did not exit within " + timeout + "; stderr: " + stderr());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    int exitCode() {
        return process.exitValue();
    }

    String stdout() {
        return read(stdout);
    }

    String stderr() {
        return read(stderr);
    }

    long pid() {
        return process.pid();
    }

    Process process() {
        return process;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM to the dlock JVM only (not to its child). */
    void sigterm() {
        process.destroy();
    }

    /** SIGKILL to the dlock JVM only: its child lives on, as after a crash of dlock itself. */
    List<ProcessHandle> sigkill() {
        List<ProcessHandle> orphans = process.descendants().toList();
        process.destroyForcibly();
        return orphans;
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    @Override
    public String toString() {
        return "dlock pid " + process.pid() + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr();
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Polls a condition until it holds, failing after a scaled timeout. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Timing.scaled(timeout).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + Timing.scaled(timeout) + " waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** A loopback port nothing listens on (it was free a moment ago). */
    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
