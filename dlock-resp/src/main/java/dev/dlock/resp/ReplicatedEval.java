package dev.dlock.resp;

import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import java.util.List;

/**
 * A script call with its {@code WAIT numreplicas timeout} (or {@code WAITAOF 0 numreplicas timeout})
 * written right behind it into the same pipeline, so that both go on the one connection and the
 * wait counts the script's writes: {@code WAIT} covers the writes of its own connection only. The
 * pair is one entry of the channel's queues, so nothing can come between its two commands, it is
 * resent as a pair after {@code NOSCRIPT} (on the same connection: {@link CommandChannel} fails
 * retries when the connection is lost), and if the connection is lost after the script's reply but
 * before the wait's, the whole entry fails with the connection as any command in flight does.
 *
 * <p>Its two replies become one: the script's error if it failed (the wait's count then means
 * nothing, and {@code NOSCRIPT} triggers the resend as for a plain call); else the wait's error,
 * worded for the reader; else a {@link Replicated} of the script's reply and the count. {@code
 * scriptReply} is written by {@link #encode} and {@link #reply}, both under the channel's lock.
 */
final class ReplicatedEval extends EvalCommand {
    private final ReplicaAck ack;
    private Object scriptReply = MORE; // MORE: the script's reply has not come yet

    ReplicatedEval(ScriptBytes script, String[] keys, String[] args, ReplicaAck ack, long deadline) {
        super(script, keys, args, deadline);
        this.ack = ack;
    }

    @Override
    void encode(CommandBuffer buffer, boolean asSource) {
        super.encode(buffer, asSource);
        scriptReply = MORE;
        int timeout = (int) Math.min(Integer.MAX_VALUE, ack.timeoutMillis());
        if (ack.fsync()) {
            buffer.command(4).bulk("WAITAOF").bulk(0).bulk(ack.replicas()).bulk(timeout);
        } else {
            buffer.command(3).bulk("WAIT").bulk(ack.replicas()).bulk(timeout);
        }
    }

    @Override
    Object reply(Object reply) {
        if (scriptReply == MORE) {
            scriptReply = reply;
            return MORE;
        }
        Object script = scriptReply;
        scriptReply = MORE;
        if (script instanceof ErrorReply) {
            return script;
        }
        if (reply instanceof ErrorReply error) {
            return new ErrorReply(waitFailure(error.message()));
        }
        Object count = reply;
        if (ack.fsync() && reply instanceof List<?> counts && counts.size() == 2) {
            count = counts.get(1); // WAITAOF answers [local fsyncs, replica fsyncs]
        }
        if (!(count instanceof Long n)) {
            return new ErrorReply("ERR unexpected reply to " + command() + " after the script: " + reply);
        }
        return new Replicated(script, (int) Math.min(Integer.MAX_VALUE, Math.max(0, n)));
    }

    private String command() {
        return ack.fsync() ? "WAITAOF" : "WAIT";
    }

    private String waitFailure(String message) {
        if (ack.fsync() && message.toLowerCase(java.util.Locale.ROOT).contains("unknown command")) {
            return "ERR replicaAckFsync needs WAITAOF, which Redis has only since 7.2; this server answered: " + message
                    + " (the script ran; its writes were not confirmed)";
        }
        return "ERR " + command() + " after the script failed: " + message + " (the script ran; its writes were"
                + " not confirmed)";
    }
}
