package dev.dlock.cli;

import dev.dlock.LockAdmin;
import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockAdmin.Waiter;
import dev.dlock.LockInfo;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dlock status NAME}: held or free, holder, remaining TTL, fencing token, waiters; for a semaphore (any shared
 * kind) every holder with its permits, and the queue.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Shows whether the lock NAME is held, by whom, for how long, its fencing token and waiters.",
            "A semaphore shows each holder with its permits, token and TTL, and its queue in order.",
            "Waiters: acquires queued in Redis for a hand-off (every waiting thread or lease counts)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:held", "1:free", "64:bad flag", "69:Redis unreachable"})
final class StatusCommand implements Callable<Integer> {
    @Mixin
    RedisOptions redis;

    @Parameters(index = "0", paramLabel = "NAME", description = "The lock name.")
    String name;

    @Option(names = "--json", description = "Print one JSON object (shape in docs/cli.md).")
    boolean json;

    @Override
    public Integer call() {
        LockInfo state = AdminCall.run(redis, admin -> admin.status(name), "NAME");
        PrintStream out = System.out;
        if (json) {
            out.println(Json.lock(state));
        } else if (!state.kind().equals(LockAdmin.MUTEX)) {
            printShared(out, state);
        } else if (state.isLocked()) {
            out.println("lock '" + name + "' is held");
            out.println("  holder:        " + state.holderId().orElseThrow());
            out.println("  remaining TTL: " + Durations.format(state.remaining().toMillis()));
            out.println("  fencing token: " + state.fencingToken());
            out.println("  waiters:       " + state.waiters());
        } else {
            out.println("lock '" + name + "' is free");
            out.println("  last fencing token: " + (state.fencingToken() == 0 ? "unknown" : state.fencingToken()));
            out.println("  waiters:            " + state.waiters());
        }
        return state.isLocked() ? ExitCodes.OK : ExitCodes.FREE;
    }

    /** A shared lock (a semaphore): its holders with their permits, and its queue in order. */
    private void printShared(PrintStream out, LockInfo state) {
        out.println(state.kind() + " '" + name + "' " + (state.isLocked() ? "is held" : "is free") + ": " + state.used()
                + " of " + state.capacity() + " permits in use");
        if (state.isLocked()) {
            out.printf("  %-50s %-8s %-18s %s%n", "HOLDER", "PERMITS", "FENCING TOKEN", "TTL");
            for (Holder holder : state.holders()) {
                out.printf(
                        "  %-50s %-8d %-18d %s%n",
                        holder.ownerId(),
                        holder.weight(),
                        holder.fencingToken(),
                        Durations.format(holder.remaining().toMillis()));
            }
        } else {
            out.println("  last fencing token: " + (state.fencingToken() == 0 ? "unknown" : state.fencingToken()));
        }
        out.println("  waiters: " + state.waiters());
        for (Waiter waiter : state.queue()) {
            out.println("    " + waiter.ownerId() + " wants " + waiter.weight());
        }
        if (state.queue().size() < state.waiters()) {
            out.println("    ... (" + (state.waiters() - state.queue().size()) + " more)");
        }
    }
}
