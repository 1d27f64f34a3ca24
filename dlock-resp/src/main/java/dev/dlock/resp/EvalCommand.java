package dev.dlock.resp;

/**
 * One script call; keeps its keys and arguments to resend it after {@code NOSCRIPT}. A subclass may
 * send a follow-up command right behind it and take both replies ({@link ReplicatedEval}).
 */
class EvalCommand extends Pending<Object> {
    /** What {@link #reply} returns while the reply of a follow-up is still to come. */
    static final Object MORE = new Object();

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

    /**
     * Takes one reply read for this command, on the reader thread, and returns the reply that
     * completes it, or {@link #MORE} if it awaits another. A plain script call takes one.
     */
    Object reply(Object reply) {
        return reply;
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
