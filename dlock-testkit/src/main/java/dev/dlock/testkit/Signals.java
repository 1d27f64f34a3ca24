package dev.dlock.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Sends POSIX signals to child processes of this JVM. Only accepts {@link Process} objects, so it can never signal a
 * process this JVM did not start. Thread-safe (stateless).
 */
final class Signals {

    private Signals() {}

    /** SIGSTOP: freezes the process. */
    static void stop(Process process) {
        send(process, "STOP");
        awaitStopped(process.pid());
    }

    /**
     * kill(2) returns before every thread of the target has stopped; wait until /proc says it has
     * (state T), so a caller's next step really happens while the process is frozen.
     */
    private static void awaitStopped(long pid) {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.isReadable(stat)) {
            return; // not Linux: best effort
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            try {
                String text = Files.readString(stat);
                int close = text.lastIndexOf(')');
                if (close > 0 && close + 2 < text.length() && text.charAt(close + 2) == 'T') {
                    return;
                }
                Thread.sleep(1);
            } catch (IOException e) {
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        throw new IllegalStateException("process " + pid + " did not stop within 5 s of SIGSTOP");
    }

    /** SIGCONT: resumes a stopped process. */
    static void cont(Process process) {
        send(process, "CONT");
    }

    /** SIGKILL and wait until the process is gone. */
    static void killAndWait(Process process) {
        process.destroyForcibly();
        waitUninterruptibly(process);
    }

    /** Blocks until {@code process} has exited, preserving the interrupt flag. */
    static void waitUninterruptibly(Process process) {
        boolean interrupted = false;
        while (true) {
            try {
                process.waitFor();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(Process process, String signal) {
        if (!process.isAlive()) {
            throw new IllegalStateException("process " + process.pid() + " is not running; cannot send SIG" + signal);
        }
        long pid = process.pid();
        ProcessBuilder builder = new ProcessBuilder(killCommand(), "-" + signal, Long.toString(pid));
        builder.redirectErrorStream(true);
        try {
            Process kill = builder.start();
            kill.getOutputStream().close();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish");
            }
            String output = new String(kill.getInputStream().readAllBytes()).trim();
            if (kill.exitValue() != 0) {
                throw new IllegalStateException(
                        "kill -" + signal + " " + pid + " failed (exit " + kill.exitValue() + "): " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to " + pid, e);
        }
    }

    private static String killCommand() {
        for (String candidate : new String[] {"/bin/kill", "/usr/bin/kill"}) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        return "kill";
    }
}
