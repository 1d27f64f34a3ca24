package dev.dlock.cli;

import picocli.CommandLine;

/**
 * The entry point of the runnable jar: {@code java -jar dlock-cli.jar COMMAND [OPTIONS]}. See {@code
 * docs/cli.md} for the commands and their exit codes.
 */
public final class DlockMain {
    private DlockMain() {}

    /**
     * Runs one {@code dlock} command and exits with its exit code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs one command and returns its exit code instead of exiting. */
    static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command tree with dlock's exit codes and error handling. */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new DlockCommand());
        cli.getSubcommands().get("run").setStopAtPositional(true);
        cli.setParameterExceptionHandler(DlockMain::usageError);
        cli.setExecutionStrategy(parsed -> {
            CliLogging.configure(parsed.asCommandLineList().stream()
                    .anyMatch(command -> command.getParseResult().hasMatchedOption("--verbose")));
            return new CommandLine.RunLast().execute(parsed);
        });
        cli.setExecutionExceptionHandler((error, commandLine, parseResult) -> {
            if (error instanceof CliFailure failure) {
                commandLine.getErr().println("dlock: " + failure.getMessage());
                return failure.exitCode();
            }
            commandLine.getErr().println("dlock: internal error: " + error);
            error.printStackTrace(commandLine.getErr());
            return ExitCodes.SOFTWARE;
        });
        return cli;
    }

    private static int usageError(CommandLine.ParameterException error, String[] args) {
        CommandLine cli = error.getCommandLine();
        cli.getErr().println("dlock: " + error.getMessage());
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(error, cli.getErr())) {
            cli.getErr().println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for more information.");
        }
        return ExitCodes.USAGE;
    }
}
