package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.spi.ReplicaAck;
import dev.dlock.spi.Replicated;
import dev.dlock.spi.Script;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a script and its wait are encoded as one pipelined pair and how their two replies become one. */
final class ReplicatedEvalTest {
    private static final ScriptBytes SCRIPT = new ScriptBytes(Script.of("one", "return 1", Script.Reply.INTEGER));

    private static ReplicatedEval pair(boolean fsync) {
        return new ReplicatedEval(
                SCRIPT, new String[] {"k"}, new String[0], new ReplicaAck(2, Duration.ofMillis(250), fsync), 0);
    }

    private static String encoded(ReplicatedEval command, boolean asSource) {
        CommandBuffer buffer = new CommandBuffer();
        command.encode(buffer, asSource);
        return new String(buffer.toByteArray(), StandardCharsets.UTF_8);
    }

    @Test
    void encode_writesTheWaitRightBehindTheScript() {
        assertThat(encoded(pair(false), false))
                .startsWith("*4\r\n$7\r\nEVALSHA\r\n")
                .endsWith("$1\r\nk\r\n*3\r\n$4\r\nWAIT\r\n$1\r\n2\r\n$3\r\n250\r\n");
        assertThat(encoded(pair(true), true))
                .startsWith("*4\r\n$4\r\nEVAL\r\n")
                .endsWith("*4\r\n$7\r\nWAITAOF\r\n$1\r\n0\r\n$1\r\n2\r\n$3\r\n250\r\n");
    }

    @Test
    void reply_takesBoth_andGivesTheScriptsReplyWithTheCount() {
        ReplicatedEval command = pair(false);
        assertThat(command.reply(7L)).isSameAs(EvalCommand.MORE);
        assertThat(command.reply(1L)).isEqualTo(new Replicated(7L, 1));
        ReplicatedEval fsync = pair(true);
        assertThat(fsync.reply("ok")).isSameAs(EvalCommand.MORE);
        assertThat(fsync.reply(List.of(1L, 2L))).isEqualTo(new Replicated("ok", 2));
    }

    @Test
    void reply_scriptErrorWins_evenNoscript_soTheResendLogicSeesIt() {
        ReplicatedEval command = pair(false);
        command.reply(new ErrorReply("NOSCRIPT No matching script."));
        assertThat(command.reply(1L)).isEqualTo(new ErrorReply("NOSCRIPT No matching script."));
        command.encode(new CommandBuffer(), true); // the resend starts afresh
        assertThat(command.reply(3L)).isSameAs(EvalCommand.MORE);
        assertThat(command.reply(2L)).isEqualTo(new Replicated(3L, 2));
    }

    @Test
    void reply_waitaofUnknown_saysItNeedsRedis72() {
        ReplicatedEval command = pair(true);
        command.reply(1L);
        Object reply = command.reply(new ErrorReply("ERR unknown command 'WAITAOF', with args beginning with: "));
        assertThat(reply).isInstanceOf(ErrorReply.class);
        assertThat(((ErrorReply) reply).message())
                .startsWith("ERR replicaAckFsync needs WAITAOF, which Redis has only since 7.2")
                .contains("the script ran");
    }
}
