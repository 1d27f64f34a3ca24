package dev.dlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.sun.net.httpserver.HttpServer;
import dev.dlock.testkit.RedisErrorReply;
import dev.dlock.testkit.RedisExtension;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole of stderr and the exit code (docs/cli.md, "Exit codes") when Redis cannot be used or a flag is wrong: one
 * line, the URI once, what happened in words, no Java class name. The lost lease of {@code run}: {@code RunIT}; the
 * wrong password: {@code AuthIT}.
 */
final class ErrorMessagesIT {
    @RegisterExtension
    static final RedisExtension redis = RedisExtension.builder().build();

    @Test
    void refusedPort_exits69_sayingConnectionRefused() {
        String uri = "redis://127.0.0.1:" + Cli.freePort();
        Cli status = Cli.run("status", "--redis", uri, "x");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(69);
        assertThat(status.stderr()).isEqualTo("dlock: cannot reach Redis at " + uri + ": connection refused\n");
    }

    @Test
    void databaseIndexOutOfRange_exits64_sayingWhatRedisAnswered() {
        String answered = catchThrowableOfType(
                        RedisErrorReply.class, () -> redis.server().command("SELECT", "99"))
                .getMessage();
        assertThat(answered).contains("DB index is out of range");
        String uri = redis.server().uri() + "/99";

        Cli status = Cli.run("status", "--redis", uri, "x");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(64);
        assertThat(status.stderr())
                .isEqualTo("dlock: invalid value for option '--redis': the database index is out of range: Redis at "
                        + uri + " answered " + answered + "\n");
    }

    @Test
    void zeroTtl_exits64_sayingTheFlagMustBePositive_beforeConnecting() {
        String down = "redis://127.0.0.1:" + Cli.freePort();
        Cli run = Cli.run("run", "--redis", down, "--name", "x", "--ttl", "0", "--", "true");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(64);
        assertThat(run.stderr()).isEqualTo("dlock: invalid value for option '--ttl': must be positive, was 0ms\n");

        Cli shortTtl = Cli.run("run", "--redis", down, "--name", "x", "--ttl", "50ms", "--", "true");
        assertThat(shortTtl.exitCode()).as(shortTtl.toString()).isEqualTo(64);
        assertThat(shortTtl.stderr())
                .isEqualTo("dlock: invalid value for option '--ttl': must be at least 100 ms, was 50 ms\n");
    }

    @Test
    void httpServerAtTheUri_exits69_sayingAnHttpServerAnswered() throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.start();
        try {
            String uri = "redis://127.0.0.1:" + http.getAddress().getPort();
            Cli status = Cli.run("status", "--redis", uri, "x");
            assertThat(status.exitCode()).as(status.toString()).isEqualTo(69);
            assertThat(status.stderr())
                    .isEqualTo("dlock: cannot reach Redis at " + uri
                            + ": an HTTP server answered, not Redis (HTTP/1.1 400 Bad Request)\n");
        } finally {
            http.stop(0);
        }
    }
}
