package dev.dlock.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code main(String[])} of a class in a separate JVM with this JVM's classpath, to test behaviour across
 * processes (lock holders that freeze, crash or exit).
 *
 * <p>stdout is read line by line by a daemon thread and consumed with {@link #awaitLine(String, Duration)}; stderr is
 * collected for failure messages ({@link #stderr()}). Faults ({@link #pause()}, {@link #kill()}) signal only this
 * child process; a JVM shutdown hook SIGKILLs children that were never closed. This class is thread-safe.
 */
public final class JvmProcess implements AutoCloseable {

    private static final String EOF = new String("<end of stdout>");

    private final String mainClass;
    private final Process process;
    private final Writer stdin;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer stdout = new StringBuffer();
    private final StringBuffer stderr = new StringBuffer();
    private boolean paused; // guarded by this

    private JvmProcess(String mainClass, Process process) {
        this.mainClass = mainClass;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        daemon("stdout", () -> readStdout(process.getInputStream()));
        daemon("stderr", () -> copy(process.getErrorStream(), stderr));
    }

    /**
     * Starts {@code mainClass} in a new JVM without extra JVM arguments.
     *
     * @param mainClass class with a {@code public static void main(String[])}
     * @param args program arguments
     * @return the running process; close it when done
     * @throws IllegalStateException if the JVM cannot be launched
     */
    public static JvmProcess start(Class<?> mainClass, String... args) {
        return builder(mainClass).args(args).start();
    }

    /**
     * Returns a builder for launching {@code mainClass} with JVM arguments.
     *
     * @param mainClass class with a {@code public static void main(String[])}
     * @return a new builder
     */
    public static Builder builder(Class<?> mainClass) {
        return new Builder(mainClass);
    }

    /**
     * Waits for the next stdout line starting with {@code prefix}; lines read before it are discarded.
     *
     * @param prefix the expected line prefix
     * @param timeout how long to wait (not scaled; pass {@link Timing#scaled(Duration)})
     * @return the whole matching line
     * @throws IllegalStateException on timeout or if the process exits first (the message contains stderr)
     */
    public String awaitLine(String prefix, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long remaining = deadline - System.nanoTime();
                String line = remaining > 0 ? lines.poll(remaining, TimeUnit.NANOSECONDS) : lines.poll();
                if (line == null) {
                    throw failure("no line starting with '" + prefix + "' within " + timeout);
                }
                if (line == EOF) {
                    lines.add(EOF);
                    throw failure("process exited before printing a line starting with '" + prefix + "'");
                }
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for '" + prefix + "'", e);
        }
    }

    /**
     * Writes {@code line} and a newline to the process's stdin and flushes.
     *
     * @param line the line to send
     * @throws UncheckedIOException if stdin is closed (for example because the process has exited)
     */
    public void send(String line) {
        synchronized (stdin) {
            try {
                stdin.write(line);
                stdin.write('\n');
                stdin.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("could not write to stdin of " + this, e);
            }
        }
    }

    /**
     * Returns the process id.
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Freezes the process with SIGSTOP.
     *
     * @throws IllegalStateException if the process is not alive
     */
    public synchronized void pause() {
        requireAlive("SIGSTOP");
        Signals.stop(process);
        paused = true;
    }

    /**
     * Resumes a {@linkplain #pause() paused} process with SIGCONT.
     *
     * @throws IllegalStateException if the process is not alive
     */
    public synchronized void resume() {
        requireAlive("SIGCONT");
        Signals.cont(process);
        paused = false;
    }

    /** Kills the process with SIGKILL and waits until it is gone; no-op if it already exited. */
    public synchronized void kill() {
        Signals.killAndWait(process);
        paused = false;
    }

    /**
     * Waits for the process to exit.
     *
     * @param timeout how long to wait (not scaled)
     * @return the exit code
     * @throws IllegalStateException if the process is still alive after {@code timeout} (the message contains stderr)
     */
    public int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw failure("process did not exit within " + timeout);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + this, e);
        }
    }

    /**
     * Tells whether the process is alive (a paused process counts as alive).
     *
     * @return {@code true} if alive
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Returns everything the process has written to stderr so far.
     *
     * @return the collected stderr
     */
    public String stderr() {
        return stderr.toString();
    }

    /**
     * Returns every stdout line read so far, including lines consumed by {@link #awaitLine(String, Duration)}.
     *
     * @return the collected stdout
     */
    public String stdout() {
        return stdout.toString();
    }

    /** Kills the process if it is still alive (resuming it first if paused); idempotent. */
    @Override
    public synchronized void close() {
        if (process.isAlive()) {
            if (paused) {
                resume();
            }
            kill();
        }
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the pipe is gone with the process
        }
        ProcessReaper.untrack(process);
    }

    @Override
    public String toString() {
        return "JvmProcess{" + mainClass + ", pid=" + process.pid() + ", alive=" + process.isAlive() + "}";
    }

    /** A process that has gone gets a failure naming its exit code and output, not a bare "not running". */
    private void requireAlive(String signal) {
        if (!process.isAlive()) {
            throw failure("cannot send " + signal + ": the process is not running");
        }
    }

    private IllegalStateException failure(String what) {
        String exit = process.isAlive() ? "alive" : "exit code " + process.exitValue();
        return new IllegalStateException(mainClass + " (pid " + process.pid() + ", " + exit + "): " + what
                + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr);
    }

    private void readStdout(InputStream in) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                stdout.append(line).append('\n');
                lines.add(line);
            }
        } catch (IOException ignored) {
            // stream closed
        } finally {
            lines.add(EOF);
        }
    }

    private static void copy(InputStream in, StringBuffer target) {
        try (InputStreamReader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            char[] buffer = new char[4096];
            int read;
            while ((read = reader.read(buffer)) >= 0) {
                target.append(buffer, 0, read);
            }
        } catch (IOException ignored) {
            // stream closed
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, "dlock-jvm-process-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private static String javaBinary() {
        Path fromHome = Path.of(System.getProperty("java.home"), "bin", "java");
        if (Files.isExecutable(fromHome)) {
            return fromHome.toString();
        }
        return ProcessHandle.current()
                .info()
                .command()
                .orElseThrow(() -> new IllegalStateException("cannot determine the java executable"));
    }

    /**
     * Configures and launches a {@link JvmProcess}.
     *
     * <p>Not thread-safe; use one builder per thread.
     */
    public static final class Builder {

        private final Class<?> mainClass;
        private final List<String> jvmArgs = new ArrayList<>();
        private final List<String> args = new ArrayList<>();

        private Builder(Class<?> mainClass) {
            this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
        }

        /**
         * Appends JVM arguments such as {@code -Xmx64m} or {@code -Dkey=value}.
         *
         * @param jvmArgs arguments placed before the main class
         * @return this builder
         */
        public Builder jvmArgs(String... jvmArgs) {
            this.jvmArgs.addAll(Arrays.asList(jvmArgs));
            return this;
        }

        /**
         * Appends program arguments passed to {@code main}.
         *
         * @param args program arguments
         * @return this builder
         */
        public Builder args(String... args) {
            this.args.addAll(Arrays.asList(args));
            return this;
        }

        /**
         * Launches the JVM with the current classpath (passed via the {@code CLASSPATH} environment variable).
         *
         * @return the running process; close it when done
         * @throws IllegalStateException if the JVM cannot be launched
         */
        public JvmProcess start() {
            List<String> command = new ArrayList<>();
            command.add(javaBinary());
            command.addAll(jvmArgs);
            command.add(mainClass.getName());
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().put("CLASSPATH", System.getProperty("java.class.path"));
            try {
                Process process = builder.start();
                ProcessReaper.track(process);
                return new JvmProcess(mainClass.getName(), process);
            } catch (IOException e) {
                throw new IllegalStateException("could not launch " + String.join(" ", command), e);
            }
        }
    }
}
