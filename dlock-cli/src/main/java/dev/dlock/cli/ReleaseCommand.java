package dev.dlock.cli;

import dev.dlock.LockAdmin;
import dev.dlock.LockAdmin.ForcedUnlock;
import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dlock release --force NAME}: deletes a stuck lock and hands it to the next waiter; a semaphore's holders are
 * all removed and its queue granted.
 */
@Command(
        name = "release",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Deletes the lock NAME whoever holds it, and hands it to the oldest queued waiter, as a release would.",
            "Only with --force: the holder is not asked; its lease is marked lost at its next renewal.",
            "A semaphore loses every holder (all its permits come back) and grants its queue from the head."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:removed, or it was not held", "64:bad flag (also: no --force)", "69:Redis unreachable"})
final class ReleaseCommand implements Callable<Integer> {
    @Mixin
    RedisOptions redis;

    @Option(names = "--force", required = true, description = "Required: delete the lock whoever holds it.")
    boolean force;

    @Parameters(index = "0", paramLabel = "NAME", description = "The lock name.")
    String name;

    @Option(names = "--json", description = "Print one JSON object (shape in docs/cli.md).")
    boolean json;

    @Override
    public Integer call() {
        ForcedUnlock forced = AdminCall.run(redis, admin -> admin.forceUnlock(name), "NAME");
        if (json) {
            System.out.println(Json.forced(name, forced));
            return ExitCodes.OK;
        }
        String next = forced.handedOver() ? "handed it to the next queued waiter" : "no waiter was queued";
        if (forced.removed().isEmpty()) {
            System.out.println("lock '" + name + "' was not held; nothing removed; " + next);
            return ExitCodes.OK;
        }
        LockInfo lock = forced.removed().get();
        if (!lock.kind().equals(LockAdmin.MUTEX)) {
            System.out.println("removed " + lock.holders().size() + " holder(s) of " + lock.kind() + " '" + name + "'; "
                    + (forced.handedOver() ? "granted permits to queued waiters" : "no queued waiter was granted"));
            for (Holder holder : lock.holders()) {
                System.out.println("  " + holder.ownerId() + ": " + holder.weight() + " permit(s), fencing token "
                        + holder.fencingToken() + ", remaining TTL "
                        + Durations.format(holder.remaining().toMillis()));
            }
            return ExitCodes.OK;
        }
        System.out.println("removed lock '" + name + "': holder "
                + lock.holderId().orElseThrow()
                + ", fencing token " + lock.fencingToken() + ", remaining TTL "
                + Durations.format(lock.remaining().toMillis()) + "; " + next);
        return ExitCodes.OK;
    }
}
