package dev.dlock.internal.testing;

/** The words of one script call as Redis reads them, for the tests that send scripts by hand. */
public final class ScriptCommand {
    private ScriptCommand() {}

    /**
     * {@code verb script numkeys key... arg...}.
     *
     * @param verb {@code EVAL} (then {@code script} is the source) or {@code EVALSHA} (its SHA-1)
     * @param script the script's source or SHA-1
     * @param keys its keys
     * @param args its arguments
     * @return the command's words
     */
    public static String[] of(String verb, String script, String[] keys, String[] args) {
        String[] command = new String[3 + keys.length + args.length];
        command[0] = verb;
        command[1] = script;
        command[2] = Integer.toString(keys.length);
        System.arraycopy(keys, 0, command, 3, keys.length);
        System.arraycopy(args, 0, command, 3 + keys.length, args.length);
        return command;
    }
}
