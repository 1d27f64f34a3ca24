package dev.dlock.cli;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.LockLostException;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs the child of {@code dlock run} and ties its life to the lease and to signals.
 *
 * <p>Protocol: three threads may end a run. The main thread waits for the child, then calls {@link
 * #finish()} (release the lease, close the client). The watchdog's loss listener terminates the
 * child (SIGTERM, SIGKILL after the grace period) and lets the main thread report exit 70. The
 * shutdown hook ({@link #onSignal()}, run on SIGTERM/SIGINT) terminates the child the same way,
 * calls {@link #finish()} and halts with the child's exit code. {@link #finish()} runs once and
 * under this object's monitor, so a second caller waits until the release is done.
 */
final class ChildSupervisor {
    private final LockClient client;
    private final Duration killAfter;
    private final PrintStream err;
    private volatile Process child;
    private volatile Lease lease;
    private volatile LockLostException lost;
    private boolean finished; // guarded by this
    private boolean signalled; // guarded by this

    ChildSupervisor(LockClient client, Duration killAfter, PrintStream err) {
        this.client = client;
        this.killAfter = killAfter;
        this.err = err;
    }

    /** Starts the child; the lease's loss terminates it from then on. */
    void start(ProcessBuilder builder, Lease lease) throws IOException {
        synchronized (this) {
            this.lease = lease;
            if (finished) {
                throw new IOException("dlock is shutting down");
            }
            child = builder.start();
        }
        lease.onLost(this::onLost);
    }

    /** Waits for the child and returns dlock's exit code. */
    int awaitChild() {
        int code = waitUninterruptibly(child);
        synchronized (this) {
            if (signalled) {
                return code; // the shutdown hook releases the lease and halts with this code
            }
        }
        LockLostException releaseLoss = finish();
        LockLostException loss = lost != null ? lost : releaseLoss;
        if (loss != null) {
            // A loss the watchdog found was logged with its reason already (dlock-core's warning); one the release
            // found was not, so only then is the reason said here.
            String reason = lost != null ? "" : " (" + reasonOf(releaseLoss) + ")";
            err.println("dlock: the command exited with " + code + " after the lease on lock '" + loss.lockName()
                    + "' was lost" + reason + "; exiting " + ExitCodes.SOFTWARE);
            return ExitCodes.SOFTWARE;
        }
        return code;
    }

    /**
     * Releases the lease (if any) and closes the client, once.
     *
     * @return the loss the release reported, or null
     */
    synchronized LockLostException finish() {
        if (finished) {
            return null;
        }
        finished = true;
        LockLostException loss = null;
        Lease held = lease;
        try {
            if (held != null) {
                held.release();
            }
        } catch (LockLostException e) {
            loss = e;
        } catch (LockException e) {
            err.println("dlock: could not release the lock (" + e.getMessage()
                    + "); it expires at the end of its lease time");
        } finally {
            client.close();
        }
        return loss;
    }

    /** The shutdown hook: SIGTERM or SIGINT reached dlock (or the JVM exits normally). */
    void onSignal() {
        synchronized (this) {
            if (finished) {
                return; // a normal exit: everything was done already
            }
            signalled = true;
        }
        Process running = child;
        if (running != null && running.isAlive()) {
            err.println("dlock: signal received; sending SIGTERM to the command (pid " + running.pid() + ")");
            terminate(running);
        }
        finish();
        err.flush();
        if (running != null) {
            Runtime.getRuntime().halt(waitUninterruptibly(running));
        }
    }

    private void onLost(LockLostException loss) {
        lost = loss;
        Process running = child;
        // Listeners run on the client's timer thread and must not block: terminate on a thread of our own.
        Thread killer = new Thread(
                () -> {
                    err.println("dlock: terminating the command (pid " + running.pid() + ") as the lease on lock '"
                            + loss.lockName() + "' was lost: SIGTERM, SIGKILL after "
                            + Durations.format(killAfter.toMillis()));
                    terminate(running);
                },
                "dlock-lost");
        killer.setDaemon(true);
        killer.start();
    }

    /** What a release found, without the lock name and token its message starts with. */
    private static String reasonOf(LockLostException loss) {
        String message = loss.getMessage();
        int colon = message.indexOf("was lost: ");
        return colon >= 0 ? message.substring(colon + "was lost: ".length()) : message;
    }

    /** SIGTERM, then SIGKILL (to the child and its descendants) if it outlives the grace period. */
    private void terminate(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(killAfter.toMillis(), TimeUnit.MILLISECONDS)) {
                err.println("dlock: the command did not exit within " + Durations.format(killAfter.toMillis())
                        + " of SIGTERM; sending SIGKILL");
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static int waitUninterruptibly(Process process) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return process.waitFor();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
