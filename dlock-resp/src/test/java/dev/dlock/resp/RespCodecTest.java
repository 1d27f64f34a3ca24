package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.RedisReplyException;
import dev.dlock.spi.RedisUri;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The encoder and decoder on their own, without Redis. */
final class RespCodecTest {

    /** Hands out at most one byte per read, so every reply is split at every possible place. */
    private static InputStream trickle(byte[] bytes) {
        return new FilterInputStream(new java.io.ByteArrayInputStream(bytes)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(1, len));
            }
        };
    }

    private static String encoded(CommandBuffer buffer) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        buffer.writeTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void encode_writesBulkStrings_asciiUtf8AndNumbers() throws IOException {
        CommandBuffer buffer = new CommandBuffer();
        buffer.command(4).bulk("SET").bulk("k").bulk("ünï").bulk(1234);
        assertThat(encoded(buffer)).isEqualTo("*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nünï\r\n$4\r\n1234\r\n");
        buffer.reset();
        assertThat(buffer.isEmpty()).isTrue();
        buffer.command(1).bulk(0);
        assertThat(encoded(buffer)).isEqualTo("*1\r\n$1\r\n0\r\n");
    }

    @Test
    void encode_evalsha_usesTheCachedPrefix_andGrowsTheBuffer() throws IOException {
        ScriptBytes script = new ScriptBytes(Scripts.ECHO_NUMBER);
        String big = "x".repeat(10_000);
        EvalCommand command = new EvalCommand(script, new String[] {"k"}, new String[] {big}, 0);
        CommandBuffer buffer = new CommandBuffer();
        command.encode(buffer, false);
        assertThat(encoded(buffer))
                .isEqualTo("*5\r\n$7\r\nEVALSHA\r\n$40\r\n" + Scripts.ECHO_NUMBER.sha1()
                        + "\r\n$1\r\n1\r\n$1\r\nk\r\n$10000\r\n" + big + "\r\n");
        buffer.reset();
        command.encode(buffer, true);
        assertThat(encoded(buffer))
                .startsWith(
                        "*5\r\n$4\r\nEVAL\r\n$" + Scripts.ECHO_NUMBER.source().length() + "\r\n");
        assertThat(command.sentAsSource).isTrue();
    }

    @Test
    void decode_everyShape_evenWhenSplitAtEveryByte() throws IOException {
        String big = "é".repeat(12_000); // 24,000 bytes, more than the read buffer
        byte[] stream = (":42\r\n:-7\r\n$-1\r\n*-1\r\n+OK\r\n-WRONGTYPE Operation\r\n$0\r\n\r\n"
                        + "*3\r\n:1\r\n*2\r\n$3\r\nabc\r\n-ERR nested\r\n$-1\r\n"
                        + "$" + big.getBytes(StandardCharsets.UTF_8).length + "\r\n" + big + "\r\n:5\r\n")
                .getBytes(StandardCharsets.UTF_8);
        RespReader reader = new RespReader(trickle(stream));
        assertThat(reader.read()).isEqualTo(42L);
        assertThat(reader.read()).isEqualTo(-7L);
        assertThat(reader.read()).isNull();
        assertThat(reader.read()).isNull();
        assertThat(reader.read()).isEqualTo("OK");
        assertThat(reader.read()).isEqualTo(new ErrorReply("WRONGTYPE Operation"));
        assertThat(reader.read()).isEqualTo("");
        List<?> nested = (List<?>) reader.read();
        assertThat(nested).hasSize(3);
        assertThat(nested.get(0)).isEqualTo(1L);
        assertThat(((List<?>) nested.get(1)).get(0)).isEqualTo("abc");
        assertThat(((List<?>) nested.get(1)).get(1))
                .isInstanceOf(RedisReplyException.class)
                .hasToString(RedisReplyException.class.getName() + ": ERR nested");
        assertThat(nested.get(2)).isNull();
        assertThat(reader.read()).isEqualTo(big);
        assertThat(reader.read()).isEqualTo(5L);
        assertThatThrownBy(reader::read).isInstanceOf(EOFException.class);
    }

    @Test
    void decode_anHttpReply_failsSayingAnHttpServerAnswered() {
        RespReader reader = new RespReader(new java.io.ByteArrayInputStream(
                "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        assertThatThrownBy(reader::read)
                .isInstanceOf(IOException.class)
                .hasMessage("an HTTP server answered, not Redis (HTTP/1.1 400 Bad Request)");
    }

    @Test
    void decode_garbage_failsShowingHowTheReplyStarts() {
        RespReader reader = new RespReader(new java.io.ByteArrayInputStream(new byte[] {0x15, 0x03, 0x01, 'x'}));
        assertThatThrownBy(reader::read)
                .isInstanceOf(IOException.class)
                .hasMessage("not a RESP2 reply, so not Redis: it starts with '\\x15\\x03\\x01x'");
    }

    @Test
    void endpoint_takesUserPasswordPortAndDatabaseFromTheParsedUri() {
        assertThat(RedisEndpoint.of(RedisUri.parse("redis://alice:p%40ss@h:7000/3")))
                .isEqualTo(new RedisEndpoint("h", 7000, false, "alice", "p@ss", 3));
        assertThat(RedisEndpoint.of(RedisUri.parse("rediss://:pw@h")))
                .isEqualTo(new RedisEndpoint("h", 6379, true, null, "pw", 0));
        assertThat(RedisEndpoint.of(RedisUri.parse("redis://h:1/")))
                .isEqualTo(new RedisEndpoint("h", 1, false, null, null, 0));
        assertThat(RedisEndpoint.at(RedisUri.parse("redis-sentinel://u:pw@s1,s2:26380/2#m"), "10.0.0.1", 6380))
                .isEqualTo(new RedisEndpoint("10.0.0.1", 6380, false, "u", "pw", 2));
        assertThatThrownBy(() -> ServerDialer.of(RedisUri.parse("redis-cluster://h:1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use dlock-lettuce");
    }
}
