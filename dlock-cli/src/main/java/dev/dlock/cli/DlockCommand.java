package dev.dlock.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code dlock} command; every subcommand shares its version and exit codes. */
@Command(
        name = "dlock",
        mixinStandardHelpOptions = true,
        versionProvider = DlockCommand.Version.class,
        description = "Distributed locks on Redis for shell scripts, cron jobs and operators.",
        exitCodeOnInvalidInput = ExitCodes.USAGE,
        exitCodeOnExecutionException = ExitCodes.SOFTWARE,
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success (status: held)",
            "1:status: free",
            "64:bad flag, duration or URI",
            "69:Redis unreachable or credentials refused",
            "70:run: lease lost while the command ran",
            "75:run: lock busy (--conflict-exit-code)"
        },
        subcommands = {
            RunCommand.class,
            StatusCommand.class,
            ListCommand.class,
            ReleaseCommand.class,
            DemoCommand.class,
            WorkerCommand.class,
            VerifyCommand.class,
            CompletionCommand.class,
            CommandLine.HelpCommand.class
        })
final class DlockCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
    }

    /** Reads the version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = DlockCommand.class.getPackage().getImplementationVersion();
            return new String[] {
                "dlock " + (version == null ? "(development build)" : version),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
            };
        }
    }
}
