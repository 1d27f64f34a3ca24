package dev.dlock.lettuce;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Builds and sends dlock's commands as {@link Tracked} commands: a script call, and a replicated
 * script call ({@code EVAL}/{@code EVALSHA} pipelined with {@code WAIT} or {@code WAITAOF} on one
 * connection), which reports an acknowledgement only when both were written exactly once to the
 * same channel.
 */
final class ScriptCommands {
    private static final ProtocolKeyword WAITAOF = new ProtocolKeyword() {
        private final byte[] bytes = "WAITAOF".getBytes(StandardCharsets.US_ASCII);

        @Override
        public byte[] getBytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return "WAITAOF";
        }
    };

    private ScriptCommands() {}

    /** The script part of a call: {@code EVAL source} or {@code EVALSHA sha1}, keys, args. */
    static Tracked<Object> script(ScriptQueue.Call call, boolean asSource, long timeoutNanos) {
        return script(call.script, call.keys, call.args, asSource, timeoutNanos);
    }

    /** {@code EVAL source} or {@code EVALSHA sha1} of a script with its keys and args. */
    static Tracked<Object> script(Script script, String[] keys, String[] values, boolean asSource, long timeoutNanos) {
        CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8)
                .add(asSource ? script.source() : script.sha1())
                .add(keys.length)
                .addKeys(keys)
                .addValues(values);
        @SuppressWarnings({"unchecked", "rawtypes"})
        CommandOutput<String, String, Object> output = script.reply() == Script.Reply.INTEGER
                ? (CommandOutput) new IntegerOutput<>(StringCodec.UTF8)
                : (CommandOutput) new NestedMultiOutput<>(StringCodec.UTF8);
        return new Tracked<>(asSource ? CommandType.EVAL : CommandType.EVALSHA, output, args, timeoutNanos);
    }

    /** Sends one tracked command on a connection (which routes it, for a cluster connection). */
    static CompletionStage<Object> send(StatefulConnection<String, String> connection, Tracked<Object> command) {
        AsyncCommand<String, String, Object> async = new AsyncCommand<>(command);
        connection.dispatch(async);
        return async;
    }

    /**
     * Sends a script (built by {@link #script}) and its {@code WAIT} (or {@code WAITAOF 0 n timeout}) as one write on a connection
     * that is not routed further (a standalone connection or one cluster node's), and completes with a
     * {@link Replicated} only if both were written once, to the same channel, so that the count covers
     * the script's writes. A script error (such as {@code NOSCRIPT}) completes it at once.
     */
    static CompletionStage<Object> sendReplicated(
            StatefulConnection<String, String> connection,
            ScriptQueue.Call call,
            Tracked<Object> script,
            long timeoutNanos,
            String maskedUri) {
        ReplicaAck ack = call.ack;
        CommandArgs<String, String> waitArgs = new CommandArgs<>(StringCodec.UTF8);
        if (ack.fsync()) {
            waitArgs.add(0);
        }
        waitArgs.add(ack.replicas()).add(ack.timeoutMillis());
        @SuppressWarnings({"unchecked", "rawtypes"})
        CommandOutput<String, String, Object> waitOutput = ack.fsync()
                ? (CommandOutput) new ArrayOutput<>(StringCodec.UTF8)
                : (CommandOutput) new IntegerOutput<>(StringCodec.UTF8);
        Tracked<Object> wait = new Tracked<>(
                ack.fsync() ? WAITAOF : CommandType.WAIT,
                waitOutput,
                waitArgs,
                timeoutNanos + ack.timeout().toNanos());
        AsyncCommand<String, String, Object> scriptAsync = new AsyncCommand<>(script);
        AsyncCommand<String, String, Object> waitAsync = new AsyncCommand<>(wait);
        CompletableFuture<Object> result = new CompletableFuture<>();
        scriptAsync.whenComplete((reply, error) -> {
            if (error != null) {
                result.completeExceptionally(error);
            }
        });
        waitAsync.whenComplete((count, error) -> {
            if (result.isDone()) {
                return;
            }
            if (!scriptAsync.isDone() || scriptAsync.isCompletedExceptionally()) {
                result.completeExceptionally(lost(maskedUri, "the script's reply did not precede the wait's"));
            } else if (!wait.sameSingleWrite(script)) {
                // Re-sent after a reconnect: a wait on a new connection covers none of the script's writes.
                result.completeExceptionally(lost(
                        maskedUri,
                        "the connection was lost before the replicas' "
                                + "acknowledgement arrived (the wait was re-sent on a new connection, whose count"
                                + " would not cover the script's writes)"));
            } else if (error != null) {
                result.completeExceptionally(error);
            } else {
                result.complete(new Replicated(scriptAsync.join(), acknowledged(count, ack)));
            }
        });
        List<RedisCommand<String, String, ?>> pair = List.of(scriptAsync, waitAsync);
        connection.dispatch(pair);
        return result;
    }

    private static int acknowledged(Object count, ReplicaAck ack) {
        if (ack.fsync()) { // WAITAOF: [local fsyncs, replicas that fsynced]
            List<?> counts = (List<?>) count;
            return ((Number) counts.get(1)).intValue();
        }
        return ((Number) count).intValue();
    }

    private static LockConnectionException lost(String maskedUri, String why) {
        return new LockConnectionException(maskedUri, "replica acknowledgement not proven: " + why, null);
    }
}
