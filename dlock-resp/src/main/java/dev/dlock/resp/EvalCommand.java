package dev.dlock.resp;

/** One script call; keeps copies of its keys and arguments to resend it after {@code NOSCRIPT}. */
final class EvalCommand extends Pending<Object> {
    final ScriptBytes script;
    final String[] keys;
    final String[] args;
    /** Whether the last send carried the source; written under the write lock before the entry is queued. */
    boolean sentAsSource;

    EvalCommand(ScriptBytes script, String[] keys, String[] args, long deadline) {
        super(deadline);
        this.script = script;
        this.keys = keys;
        this.args = args;
    }

    /** Appends the command to {@code buffer}, by SHA-1 or with the source. */
    void encode(CommandBuffer buffer, boolean asSource) {
        sentAsSource = asSource;
        buffer.command(3 + keys.length + args.length)
                .raw(asSource ? script.eval : script.evalsha)
                .bulk(keys.length);
        for (String key : keys) {
            buffer.bulk(key);
        }
        for (String arg : args) {
            buffer.bulk(arg);
        }
    }
}
