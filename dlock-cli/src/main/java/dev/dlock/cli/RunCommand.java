package dev.dlock.cli;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dlock run}: a distributed {@code flock(1)}. Takes a lease, runs the command as a child with
 * inherited stdin/stdout/stderr while the client's watchdog renews the lease, releases it when the
 * child exits, and exits with the child's exit code.
 *
 * <p>Signals: a SIGTERM or SIGINT to {@code dlock} runs the JVM's shutdown hooks; the {@link
 * ChildSupervisor} hook sends SIGTERM to the child, waits for it (SIGKILL after {@code --kill-after}),
 * releases the lease and exits with the child's exit code.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Runs CMD while holding the lock NAME; exits with CMD's exit code.",
            "The lease is renewed while CMD runs and released when it exits.",
            "CMD sees DLOCK_NAME and DLOCK_FENCING_TOKEN in its environment."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "n:CMD's own exit code (128+signal if it died of a signal)",
            "64:bad flag or duration",
            "69:Redis unreachable or credentials refused",
            "70:the lease was lost while CMD ran (CMD was terminated)",
            "75:the lock stayed busy for --wait (see --conflict-exit-code)",
            "127:CMD could not be started"
        },
        footer = {"%nDurations: " + Durations.GRAMMAR + "."})
final class RunCommand implements Callable<Integer> {
    @Mixin
    RedisOptions redis;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The lock name.")
    String name;

    @Option(
            names = "--ttl",
            paramLabel = "DURATION",
            defaultValue = "30s",
            converter = Durations.class,
            description = "Lease time; renewed every third of it while CMD runs (default: ${DEFAULT-VALUE}).")
    Duration ttl;

    @Option(
            names = "--wait",
            paramLabel = "DURATION|forever",
            defaultValue = "0",
            converter = Durations.Wait.class,
            description = "How long to wait for a busy lock: 0 (the default) tries once, as flock -w 0 does;"
                    + " forever waits as long as it takes.")
    Duration wait;

    @Option(
            names = "--conflict-exit-code",
            paramLabel = "N",
            defaultValue = "" + ExitCodes.TEMPFAIL,
            description = "Exit code when the lock stays busy (default: ${DEFAULT-VALUE}).")
    int conflictExitCode;

    @Option(
            names = "--kill-after",
            paramLabel = "DURATION",
            defaultValue = "10s",
            converter = Durations.class,
            description = "After a lost lease or a signal: SIGKILL the child this long after SIGTERM"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration killAfter;

    @Parameters(arity = "1..*", paramLabel = "CMD", description = "The command and its arguments (after --).")
    List<String> command;

    @Override
    public Integer call() {
        CliFailure.checkRange("--conflict-exit-code", conflictExitCode, 0, 255);
        PrintStream err = System.err;
        LockClient client = redis.connect(ttl, "--ttl");
        ChildSupervisor supervisor = new ChildSupervisor(client, killAfter, err);
        Runtime.getRuntime().addShutdownHook(new Thread(supervisor::onSignal, "dlock-signal"));
        try {
            DistributedLock lock = lockNamed(client);
            Optional<Lease> taken =
                    wait.equals(Durations.Wait.FOREVER) ? Optional.of(lock.acquire()) : lock.tryAcquire(wait);
            if (taken.isEmpty()) {
                err.println("dlock: lock '" + name + "' is busy after waiting " + Durations.format(wait.toMillis())
                        + ": " + holderOf(lock));
                supervisor.finish();
                return conflictExitCode;
            }
            Lease lease = taken.get();
            ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
            builder.environment().put("DLOCK_NAME", name);
            builder.environment().put("DLOCK_FENCING_TOKEN", Long.toString(lease.fencingToken()));
            try {
                supervisor.start(builder, lease);
            } catch (IOException e) {
                supervisor.finish();
                throw new CliFailure(ExitCodes.CANNOT_RUN, "cannot run " + command.get(0) + ": " + e.getMessage(), e);
            }
            return supervisor.awaitChild();
        } catch (LockException e) {
            supervisor.finish();
            throw RedisFailures.afterConnecting(e);
        }
    }

    private DistributedLock lockNamed(LockClient client) {
        try {
            return client.lock(name);
        } catch (IllegalArgumentException e) {
            client.close();
            throw CliFailure.badOption("--name", e.getMessage(), e);
        }
    }

    private static String holderOf(DistributedLock lock) {
        try {
            LockInfo info = lock.info();
            return info.holderId()
                    .map(holder -> "held by " + holder + ", remaining TTL "
                            + Durations.format(info.remaining().toMillis()))
                    .orElse("its holder released it just now; try again");
        } catch (LockException e) {
            return "holder unknown (" + e.getMessage() + ")";
        }
    }
}
