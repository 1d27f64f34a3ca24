package dev.dlock.cli;

import dev.dlock.LockInfo;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dlock list [PATTERN]}: the locks held now, found with SCAN. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Lists the locks held now whose names match PATTERN (a Redis glob; default *), mutexes and semaphores.",
            "Walks the key space with SCAN (never KEYS); standalone Redis only."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:success (also when nothing is held)", "64:bad flag", "69:Redis unreachable"})
final class ListCommand implements Callable<Integer> {
    @Mixin
    RedisOptions redis;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "PATTERN",
            defaultValue = "*",
            description = "Glob over names.")
    String pattern;

    @Option(names = "--json", description = "Print one JSON object (shape in docs/cli.md).")
    boolean json;

    @Override
    public Integer call() {
        List<LockInfo> locks = AdminCall.run(redis, admin -> admin.list(pattern), "PATTERN").stream()
                .sorted(Comparator.comparing(LockInfo::name))
                .toList();
        PrintStream out = System.out;
        if (json) {
            out.println(Json.list(pattern, locks));
            return ExitCodes.OK;
        }
        if (locks.isEmpty()) {
            out.println("no held locks match '" + pattern + "'");
            return ExitCodes.OK;
        }
        out.printf(
                "%-30s %-10s %-6s %-12s %-18s %-8s %s%n",
                "NAME", "KIND", "HELD", "TTL", "FENCING TOKEN", "WAITERS", "HOLDER");
        for (LockInfo lock : locks) {
            // a shared lock's line shows its latest holder (highest token) and permits in use of the capacity
            out.printf(
                    "%-30s %-10s %-6s %-12s %-18d %-8d %s%s%n",
                    lock.name(),
                    lock.kind(),
                    lock.used() + "/" + lock.capacity(),
                    Durations.format(lock.remaining().toMillis()),
                    lock.fencingToken(),
                    lock.waiters(),
                    lock.holderId().orElse(""),
                    lock.holders().size() > 1 ? " (+" + (lock.holders().size() - 1) + " more)" : "");
        }
        return ExitCodes.OK;
    }
}
