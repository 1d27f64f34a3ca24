package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.dlock.LockClient;
import dev.dlock.LockConnectionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * What a client says when nothing, or something that is not Redis, answers at the URI: in words, the URI once, no
 * exception class name (issue 27: {@code java.net.ConnectException: Connection refused}, {@code type byte 72}).
 */
final class RespConnectFailuresTest {

    @Test
    void refusedPort_saysConnectionRefused() {
        String uri = "redis://127.0.0.1:" + freePort();
        assertThatThrownBy(() -> LockClient.builder().redisUri(uri).build().close())
                .isInstanceOf(LockConnectionException.class)
                .hasMessage("cannot connect to Redis: connection refused [" + uri + "]");
    }

    @Test
    void httpServer_saysAnHttpServerAnswered() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.start();
        try {
            String uri = "redis://127.0.0.1:" + http.getAddress().getPort();
            assertThatThrownBy(() -> LockClient.builder().redisUri(uri).build().close())
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessage(
                            "cannot connect to Redis: an HTTP server answered, not Redis (HTTP/1.1 400 Bad Request) ["
                                    + uri + "]");
        } finally {
            http.stop(0);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
