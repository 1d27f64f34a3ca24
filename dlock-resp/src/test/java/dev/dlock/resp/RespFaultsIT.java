package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.contract.Workers;
import dev.dlock.spi.Transport;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Connection faults on real servers: refused credentials, no server, a frozen server, a restart, a kill. */
final class RespFaultsIT {
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    private static final String[] NO_KEYS = {};

    private static CompletableFuture<Object> echo(Transport transport, long value) {
        return transport.eval(Scripts.ECHO_NUMBER, NO_KEYS, new String[] {Long.toString(value)});
    }

    private static long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void wrongOrMissingPassword_failsWithAuthenticationError_passwordMasked() {
        try (RedisServer server = RedisServer.builder().password("s3cret").start()) {
            RespTransportFactory factory = new RespTransportFactory();
            assertThatThrownBy(() -> factory.connect(Scripts.config("redis://127.0.0.1:" + server.port(), TIMEOUT)))
                    .isInstanceOf(LockAuthenticationException.class)
                    .hasMessageContaining("NOAUTH");
            assertThatThrownBy(
                            () -> factory.connect(Scripts.config("redis://:wrong@127.0.0.1:" + server.port(), TIMEOUT)))
                    .isInstanceOf(LockAuthenticationException.class)
                    .hasMessageContaining(":***@127.0.0.1:" + server.port())
                    .hasMessageNotContaining("wrong");
            try (Transport ok = factory.connect(Scripts.config(server.uri(), TIMEOUT))) {
                assertThat(echo(ok, 1)).succeedsWithin(Duration.ofSeconds(2)).isEqualTo(1L);
            }
        }
    }

    @Test
    void userAndPassword_andDatabaseFromThePath() {
        try (RedisServer server = RedisServer.builder().start()) {
            server.command("ACL", "SETUSER", "alice", "on", ">pa ss", "~*", "&*", "+@all");
            String uri = "redis://alice:pa%20ss@127.0.0.1:" + server.port() + "/2";
            try (Transport transport = new RespTransportFactory().connect(Scripts.config(uri, TIMEOUT))) {
                assertThat(transport.eval(Scripts.INCR, new String[] {"counter"}, new String[0]))
                        .succeedsWithin(Duration.ofSeconds(2))
                        .isEqualTo(1L);
            }
            assertThat((String) server.command("INFO", "keyspace")).contains("db2:keys=1");
            assertThatThrownBy(() -> new RespTransportFactory()
                            .connect(Scripts.config("redis://alice:nope@127.0.0.1:" + server.port(), TIMEOUT)))
                    .isInstanceOf(LockAuthenticationException.class)
                    .hasMessageContaining("WRONGPASS");
        }
    }

    @Test
    void unreachable_failsFastWithConnectionError() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() ->
                        new RespTransportFactory().connect(Scripts.config("redis://127.0.0.1:" + closedPort, TIMEOUT)))
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("127.0.0.1:" + closedPort);
        // A socket that accepts but never answers: the handshake must give up within the timeout.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> new RespTransportFactory()
                            .connect(Scripts.config("redis://127.0.0.1:" + silent.getLocalPort(), TIMEOUT)))
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("did not answer in time");
        }
        assertThat(millisSince(start)).isLessThan(TIMEOUT.toMillis() + 1000);
    }

    @Test
    void clusterUri_isRejectedClearly_beforeAnyIo() {
        assertThatThrownBy(() -> new RespTransportFactory()
                        .connect(Scripts.config("redis-cluster://:s3cret@127.0.0.1:1,127.0.0.1:2", TIMEOUT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use dlock-lettuce")
                .hasMessageContaining("redis-cluster://:***@127.0.0.1:1,127.0.0.1:2")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void supports_standaloneAndSentinel_notCluster() {
        RespTransportFactory factory = new RespTransportFactory();
        assertThat(factory.supports("redis://127.0.0.1:6379")).isTrue();
        assertThat(factory.supports("rediss://127.0.0.1:6379")).isTrue();
        assertThat(factory.supports("redis-sentinel://127.0.0.1:26379#m")).isTrue();
        assertThat(factory.supports("redis-cluster://127.0.0.1:7000")).isFalse();
    }

    @Test
    void sigstop_failsPendingWithinTheTimeout_thenRepliesStayAligned() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), TIMEOUT))) {
            assertThat(echo(transport, 0)).succeedsWithin(Duration.ofSeconds(2));
            server.pause();
            List<CompletableFuture<Object>> frozen = new ArrayList<>();
            long start = System.nanoTime();
            try {
                for (int i = 0; i < 200; i++) {
                    frozen.add(echo(transport, -1 - i));
                }
                for (CompletableFuture<Object> f : frozen) {
                    assertThat(f).failsWithin(Timing.scaled(Duration.ofSeconds(3)));
                    assertThatThrownBy(f::join)
                            .cause()
                            .isInstanceOf(LockConnectionException.class)
                            .hasMessageContaining("did not answer in time");
                }
                assertThat(millisSince(start)).isLessThan(TIMEOUT.toMillis() + 300);
            } finally {
                server.resume();
            }
            // The 200 late replies are consumed and dropped; new callers get their own answers.
            List<Throwable> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
            Workers.run("echo", 8, Duration.ofSeconds(30), id -> {
                for (int i = 0; i < 200; i++) {
                    long expected = id * 1000L + i;
                    Object got = echo(transport, expected).join();
                    if (!Long.valueOf(expected).equals(got)) {
                        wrong.add(new AssertionError(expected + " got " + got));
                    }
                }
            });
            assertThat(wrong).isEmpty();
        }
    }

    @Test
    void restart_failsPending_nextCommandWorks_andSubscriptionsAreRestored() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), TIMEOUT))) {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            transport.onMessage((channel, message) -> received.add(channel + "=" + message));
            transport.subscribe("wake").get(2, TimeUnit.SECONDS);
            server.pause();
            CompletableFuture<Object> pending = echo(transport, 7);
            server.kill();
            assertThat(pending).failsWithin(Duration.ofSeconds(2));
            assertThatThrownBy(pending::join).cause().isInstanceOf(LockConnectionException.class);
            server.start();
            assertThat(echo(transport, 8)).succeedsWithin(Duration.ofSeconds(2)).isEqualTo(8L);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!numsub(server, "wake") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(server.command("PUBLISH", "wake", "after-restart")).isEqualTo(1L);
            assertThat(received.poll(2, TimeUnit.SECONDS)).isEqualTo("wake=after-restart");
        }
    }

    @Test
    void clientKill_nextCommandWorks_scriptsSentAgainOnTheNewConnection() throws Exception {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), TIMEOUT))) {
            assertThat(echo(transport, 1)).succeedsWithin(Duration.ofSeconds(2));
            server.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
            server.command("SCRIPT", "FLUSH");
            server.command("CONFIG", "RESETSTAT");
            CompletableFuture<Object> next = echo(transport, 2);
            // Either it raced the kill (a connection error) or it went out on the new connection.
            if (next.handle((r, e) -> e).get(2, TimeUnit.SECONDS) != null) {
                next = echo(transport, 2);
            }
            assertThat(next).succeedsWithin(Duration.ofSeconds(2)).isEqualTo(2L);
            assertThat(Scripts.calls(server, "evalsha")).isZero(); // the new connection sent the source at once
        }
    }

    @Test
    void serverGone_commandsFailWithinTheTimeout_notHang() {
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), TIMEOUT))) {
            server.kill();
            for (int i = 0; i < 3; i++) {
                long start = System.nanoTime();
                CompletableFuture<Object> f = echo(transport, i);
                assertThat(f).failsWithin(Duration.ofSeconds(2));
                assertThatThrownBy(f::join).cause().isInstanceOf(LockConnectionException.class);
                assertThat(millisSince(start)).isLessThan(TIMEOUT.toMillis() + 300);
            }
            CompletableFuture<Void> subscribe = transport.subscribe("nobody");
            assertThat(subscribe).failsWithin(Duration.ofSeconds(2));
            assertThatThrownBy(subscribe::join).cause().isInstanceOf(LockConnectionException.class);
        }
    }

    /**
     * With a long command timeout, a server gone for good is told within about a second (the reconnect
     * grace), not after the timeout, and from then on each command fails with the connect attempt it
     * triggers; once the server is back, the next command goes through.
     */
    @Test
    void serverGone_commandsFailAfterTheReconnectGrace_notTheCommandTimeout_andAtOnceAfterThat() throws Exception {
        Duration timeout = Duration.ofSeconds(10);
        try (RedisServer server = RedisServer.builder().start();
                Transport transport = new RespTransportFactory().connect(Scripts.config(server.uri(), timeout))) {
            assertThat(echo(transport, 1)).succeedsWithin(Duration.ofSeconds(2));
            long stopping = System.nanoTime();
            server.stop();
            // A command written before the client reads the server's EOF fails as "lost the connection"
            // (sent, outcome unknown): correct, but not the case under test. Wait until the loss is seen.
            RespTransport resp = (RespTransport) transport;
            long deadline =
                    System.nanoTime() + Timing.scaled(Duration.ofSeconds(5)).toNanos();
            while (resp.commandsLinked()) {
                assertThat(System.nanoTime() - deadline)
                        .as("the client sees the server gone")
                        .isNegative();
                Thread.sleep(1);
            }
            long seen = System.nanoTime();
            CompletableFuture<Object> first = echo(transport, 2);
            assertThat(first).failsWithin(Timing.scaled(Duration.ofSeconds(3)));
            assertThatThrownBy(first::join)
                    .cause()
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("not connected to Redis for");
            assertThat(millisSince(stopping)).as("not before the grace").isGreaterThanOrEqualTo(900L);
            assertThat(millisSince(seen)).as("the grace, not the 10 s timeout").isLessThan(2000L);
            for (int i = 0; i < 3; i++) {
                long issued = System.nanoTime();
                CompletableFuture<Void> subscribe = transport.subscribe("gone-" + i);
                CompletableFuture<Object> later = echo(transport, 3);
                assertThat(later).failsWithin(Duration.ofSeconds(2));
                assertThat(subscribe).failsWithin(Duration.ofSeconds(2));
                assertThat(millisSince(issued)).isLessThan(2500);
            }
            long issued = System.nanoTime();
            CompletableFuture<Object> later = echo(transport, 4);
            assertThat(later).failsWithin(Duration.ofSeconds(2));
            assertThat(millisSince(issued))
                    .as("the command channel is down: its attempt fails at once")
                    .isLessThan(300);

            server.start();
            assertThat(echo(transport, 5)).succeedsWithin(Duration.ofSeconds(2)).isEqualTo(5L);
        }
    }

    private static boolean numsub(RedisServer server, String channel) {
        List<?> reply = (List<?>) server.command("PUBSUB", "NUMSUB", channel);
        return ((Long) reply.get(1)) > 0;
    }
}
