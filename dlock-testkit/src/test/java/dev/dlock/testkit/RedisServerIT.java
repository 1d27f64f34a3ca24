package dev.dlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RedisServerIT {

    @Test
    void start_answersPing_onFreePort_andStopRefusesConnections() {
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.command("PING")).isEqualTo("PONG");
            assertThat(server.port()).isNotEqualTo(6379).isPositive();
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
            assertThat(server.isRunning()).isTrue();
            assertThat(Files.isDirectory(server.dataDir())).isTrue();

            server.stop();

            assertThat(server.isRunning()).isFalse();
            assertThatThrownBy(() -> connect(server.port())).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void restart_withAof_keepsData() {
        try (RedisServer server = RedisServer.builder().aof(true).start()) {
            int port = server.port();
            long pid = server.pid();
            server.command("SET", "k", "v");

            server.restart();

            assertThat(server.port()).isEqualTo(port);
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
            assertThat(server.isAof()).isTrue();
            assertThat(server.command("GET", "k")).isEqualTo("v");
        }
    }

    @Test
    void restart_withoutAof_losesData() {
        try (RedisServer server = RedisServer.builder().aof(false).start()) {
            server.command("SET", "k", "v");

            server.restart();

            assertThat(server.command("GET", "k")).isNull();
            assertThat(server.command("CONFIG", "GET", "appendonly")).isEqualTo(List.of("appendonly", "no"));
        }
    }

    @Test
    void password_isRequired_andUriContainsIt() throws IOException {
        try (RedisServer server = RedisServer.builder().password("s3cret").start()) {
            assertThat(server.command("PING")).isEqualTo("PONG");
            assertThat(server.uri()).isEqualTo("redis://:s3cret@127.0.0.1:" + server.port());
            try (Socket socket = connect(server.port())) {
                OutputStream out = socket.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
                assertThat(in.readLine()).startsWith("-NOAUTH");
            }
        }
    }

    @Test
    void pause_blocksReplies_untilResume() {
        try (RedisServer server = RedisServer.builder().start()) {
            server.pause();
            try {
                assertThat(server.isPaused()).isTrue();
                assertThatThrownBy(() -> server.command(Duration.ofMillis(300), "PING"))
                        .isInstanceOf(UncheckedIOException.class)
                        .hasCauseInstanceOf(SocketTimeoutException.class);
            } finally {
                server.resume();
            }
            assertThat(server.isPaused()).isFalse();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void close_whilePaused_stopsServer_andDeletesDataDir() {
        RedisServer server = RedisServer.builder().aof(true).start();
        long pid = server.pid();
        Path dir = server.dataDir();
        server.pause();

        server.close();
        server.close();

        assertThat(server.isRunning()).isFalse();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
        assertThat(dir).doesNotExist();
        assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void kill_endsProcess_andStartComesBackOnSamePort() {
        try (RedisServer server = RedisServer.builder().start()) {
            long pid = server.pid();
            int port = server.port();

            server.kill();

            assertThat(server.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(java.util.Optional.of(true));
            assertThatThrownBy(server::pause).isInstanceOf(IllegalStateException.class);

            server.start();

            assertThat(server.port()).isEqualTo(port);
            assertThat(server.command("PING")).isEqualTo("PONG");
            assertThatThrownBy(server::start).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void command_decodesRespTypes() {
        try (RedisServer server = RedisServer.builder().start()) {
            assertThat(server.command("INCRBY", "n", "5")).isEqualTo(5L);
            assertThat(server.command("HSET", "h", "f", "v")).isEqualTo(1L);
            assertThat(server.command("HGETALL", "h")).isEqualTo(List.of("f", "v"));
            assertThat(server.command("TYPE", "h")).isEqualTo("hash");
            assertThat(server.command("PTTL", "h")).isEqualTo(-1L);
            assertThat(server.command("GET", "missing")).isNull();
            assertThat(server.command("SET", "text", "grüße\r\nline")).isEqualTo("OK");
            assertThat(server.command("GET", "text")).isEqualTo("grüße\r\nline");
            assertThatThrownBy(() -> server.command("LPUSH", "h", "x"))
                    .isInstanceOfSatisfying(
                            RedisErrorReply.class, e -> assertThat(e.prefix()).isEqualTo("WRONGTYPE"));
        }
    }

    @Test
    void extraArgs_arePassedThrough() {
        try (RedisServer server = RedisServer.builder()
                .extraArgs("--maxmemory", "2mb", "--maxmemory-policy", "noeviction")
                .start()) {
            assertThat(server.command("CONFIG", "GET", "maxmemory")).isEqualTo(List.of("maxmemory", "2097152"));
            assertThat(server.command("CONFIG", "GET", "maxmemory-policy"))
                    .isEqualTo(List.of("maxmemory-policy", "noeviction"));
        }
    }

    @Test
    void debugCommand_isEnabled_onRedis7() {
        try (RedisServer server = RedisServer.builder().start()) {
            assumeTrue(RedisBinary.major(server.version()) >= 7, "DEBUG is enabled by default before Redis 7");
            assertThat(server.command("DEBUG", "SLEEP", "0")).isEqualTo("OK");
        }
    }

    @Test
    void failedStart_reportsLogTail() {
        assertThatThrownBy(() ->
                        RedisServer.builder().extraArgs("--no-such-option", "1").start())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exited with code")
                .hasMessageContaining("no-such-option");
    }

    private static Socket connect(int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            socket.setSoTimeout(5000);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }
}
