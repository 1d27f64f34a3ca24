package dev.dlock.cli;

import dev.dlock.verify.Options;
import dev.dlock.verify.SimulatedRun;
import dev.dlock.verify.VerifyFlags;
import dev.dlock.verify.VerifyMain;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code dlock verify}: the Jepsen-style torture run of {@code dlock-verify}, with its one-screen report. Its flags
 * are dlock-verify's own ({@link VerifyFlags}, mixed in), parsed once here and passed on as {@link Options}.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = {
            "Runs the torture run: threads and holder JVMs loop acquire, fenced read-modify-write, release,"
                    + " under scripted faults; five checkers read the histories and three deliberately broken"
                    + " variants must be caught. See docs/verification.md.",
            "Without --redis it starts its own redis-servers and also injects server faults (SIGSTOP, restarts,"
                    + " DEBUG SLEEP). With --redis (or $" + RedisOptions.ENV + ") it runs only the client-side"
                    + " faults against that Redis, never signals it, and deletes its own keys at the end.",
            "With --simulate it runs the deterministic simulation instead (no Redis needed): --seeds seeds of"
                    + " --steps steps each, from --seed on, each replayable from its seed."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:no violation, every control caught",
            "1:a violation, or a control not caught",
            "64:bad flag",
            "69:could not run (no redis-server, Redis unreachable)"
        })
final class VerifyCommand implements Callable<Integer> {
    @Mixin
    VerifyFlags flags;

    @Override
    public Integer call() {
        Options options;
        try {
            if (flags.simulate()) {
                SimulatedRun run = flags.toSimulatedRun();
                return run.run(System.out) == 0 ? ExitCodes.OK : 1;
            }
            // a bad seed, transport or scenario name is a usage error, before anything starts
            options = flags.toOptions(System.getenv(RedisOptions.ENV));
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCodes.USAGE, e.getMessage(), e);
        }
        int code = VerifyMain.run(System.out, System.err, options);
        return switch (code) {
            case 0 -> ExitCodes.OK;
            case 1 -> 1;
            default -> ExitCodes.UNAVAILABLE; // VerifyMain's 2: the run could not be set up
        };
    }
}
