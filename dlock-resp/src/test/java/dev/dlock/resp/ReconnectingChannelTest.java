package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.LockConnectionException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The connection life cycle of {@link ReconnectingChannel} on its own: a minimal channel that sends
 * {@code ECHO}, against a stand-in server on loopback that answers the handshake and echoes, and can
 * drop its connections, stop and start again.
 */
final class ReconnectingChannelTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private FakeRedis server;
    private EchoChannel channel;

    @AfterEach
    void tearDown() throws IOException {
        if (channel != null) {
            channel.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void lostLink_failsWhatWasSent_thenReconnectsInTheBackground() throws Exception {
        server = new FakeRedis(0);
        channel = new EchoChannel(server.port());
        channel.connect();
        assertThat(channel.echo("a").get(5, TimeUnit.SECONDS)).isEqualTo("a");

        server.answering = false;
        Echo unanswered = channel.echo("b");
        await(() -> server.received.contains("b"));
        server.dropConnections();
        assertThatThrownBy(() -> unanswered.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("lost the connection to Redis");

        server.answering = true;
        assertThat(channel.echo("c").get(5, TimeUnit.SECONDS)).isEqualTo("c");
        assertThat(server.accepted()).isEqualTo(2);
        assertThat(channel.notConnectedReason()).isNull();
    }

    @Test
    void whileDisconnected_requestsWait_overdueOnesAreNeverSent_theRestGoInOrder() throws Exception {
        server = new FakeRedis(0);
        int port = server.port();
        channel = new EchoChannel(port);
        channel.connect();
        server.close();
        awaitDown(channel, port); // the link is gone and a reconnect failed
        assertThat(channel.notConnectedReason())
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("cannot connect to Redis");

        Echo overdue = new Echo("overdue", System.nanoTime() - 1);
        channel.send(overdue);
        Echo first = channel.echo("first");
        Echo second = channel.echo("second");
        List<Pending<?>> timedOut = new ArrayList<>();
        channel.collectOverdue(System.nanoTime(), timedOut);
        assertThat(timedOut).containsExactly(overdue);

        server = new FakeRedis(port);
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(server.received).containsSubsequence("first", "second").doesNotContain("overdue");
    }

    @Test
    void whileReconnectingFails_requestsWaitOnlyTheGrace_thenFailAtOnce_neverSent_untilRedisIsBack() throws Exception {
        long grace = TimeUnit.MILLISECONDS.toNanos(400);
        server = new FakeRedis(0);
        int port = server.port();
        channel = new EchoChannel(port, grace);
        channel.connect();
        server.close();
        long lost = System.nanoTime();
        awaitDown(channel, port); // the link is gone and a reconnect failed

        Echo waiting = channel.echo("waiting");
        channel.failWaitingIfDown(System.nanoTime()); // as the transport's timer does on each tick
        assertThat(waiting).as("within the grace it waits for the reconnect").isNotDone();
        assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
                .cause()
                .isInstanceOf(LockConnectionException.class)
                .hasMessageContaining("not connected to Redis for")
                .hasMessageContaining("reconnecting fails (cannot connect to Redis")
                .hasMessageEndingWith("not sent [redis://127.0.0.1:" + port + "]");
        assertThat(System.nanoTime() - lost)
                .as("failed by the next failed attempt after the grace, not the %s timeout", TIMEOUT)
                .isGreaterThanOrEqualTo(grace)
                .isLessThan(grace + TimeUnit.MILLISECONDS.toNanos(1500));

        for (int i = 0; i < 3; i++) {
            long issued = System.nanoTime();
            Echo later = channel.echo("later-" + i);
            assertThatThrownBy(() -> later.get(5, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("not connected to Redis");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - issued))
                    .as("past the grace a request fails with the connect attempt it triggers, not after a back-off")
                    .isLessThan(300);
        }

        server = new FakeRedis(port);
        assertThat(channel.echo("back").get(5, TimeUnit.SECONDS)).isEqualTo("back");
        assertThat(server.received).containsExactly("back");
    }

    @Test
    void close_failsWhatIsPending_stopsReconnecting_andFailsLaterRequestsAtOnce() throws Exception {
        server = new FakeRedis(0);
        channel = new EchoChannel(server.port());
        channel.connect();
        server.answering = false;
        Echo sent = channel.echo("sent");
        await(() -> server.received.contains("sent"));

        channel.close();
        for (Echo e : List.of(sent, channel.echo("after"))) {
            assertThatThrownBy(() -> e.get(5, TimeUnit.SECONDS))
                    .cause()
                    .isInstanceOf(LockConnectionException.class)
                    .hasMessageContaining("the dlock transport was closed");
        }
        Thread.sleep(200); // time enough for a reconnect, had the lost link started one
        assertThat(server.accepted()).isEqualTo(1);
        assertThat(server.received).doesNotContain("after");
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        await(condition, () -> "");
    }

    private static void await(BooleanSupplier condition, Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline)
                    .as(() -> "waited 5 s" + state.get())
                    .isNegative();
            Thread.sleep(5);
        }
    }

    /**
     * Waits until the channel has lost its link and a reconnect failed; if not, the message says which part did not
     * happen, and whether something answers on the closed server's port by then. (It timed out twice, on loaded hosts,
     * with the link up again and no connect failure: the reconnect had been accepted by the fake server's listener
     * while it closed, which {@link FakeRedis#close} now waits out.)
     */
    private static void awaitDown(EchoChannel channel, int port) throws InterruptedException {
        await(() -> channel.notConnectedReason() != null, () -> {
            boolean answers;
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                answers = true;
            } catch (IOException e) {
                answers = false;
            }
            return ": link " + (channel.link != null ? "still up" : "gone") + ", last connect failure "
                    + channel.lastConnectFailure + ", port " + port
                    + (answers ? " accepts connections (another process took it?)" : " refuses connections");
        });
    }

    private static final class Echo extends Pending<Object> {
        final String text;

        Echo(String text, long deadline) {
            super(deadline);
            this.text = text;
        }
    }

    /** The least channel: writes {@code ECHO} under the lock, and completes the oldest one with each reply. */
    private static final class EchoChannel extends ReconnectingChannel<Echo> {
        /** A channel whose requests wait for a reconnect longer than any test takes, as before the grace. */
        EchoChannel(int port) {
            this(port, TimeUnit.MINUTES.toNanos(1));
        }

        EchoChannel(int port, long graceNanos) {
            super(endpoint(port), "test", TIMEOUT, "redis://127.0.0.1:" + port, "dlock-resp-test-", graceNanos);
        }

        private static ServerDialer endpoint(int port) {
            return ServerDialer.of(dev.dlock.spi.RedisUri.parse("redis://127.0.0.1:" + port));
        }

        Echo echo(String text) {
            Echo e = new Echo(text, System.nanoTime() + TIMEOUT.toNanos());
            send(e);
            return e;
        }

        void send(Echo e) {
            boolean connect = false;
            boolean isClosed = false;
            lock.lock();
            try {
                if (closed) {
                    isClosed = true;
                } else if (link == null) {
                    waiting.addLast(e);
                    connect = connectNeeded();
                } else {
                    link.sent.addLast(e);
                    write(link, e);
                }
            } finally {
                lock.unlock();
            }
            if (isClosed) {
                e.fail(Failures.closed(maskedUri));
            } else if (connect) {
                connectInBackground();
            }
        }

        private static void write(Link<Echo> l, Echo e) {
            CommandBuffer buffer = new CommandBuffer();
            buffer.command(2).bulk("ECHO").bulk(e.text);
            try {
                buffer.writeTo(l.connection.out);
            } catch (IOException failure) {
                l.connection.close(); // the reader loses the link
            }
        }

        @Override
        void install(Connection connection) {
            Link<Echo> l = new Link<>(connection);
            lock.lock();
            try {
                if (!attach(l)) {
                    return;
                }
                for (Echo e = waiting.pollFirst(); e != null; e = waiting.pollFirst()) {
                    if (!e.isDone()) {
                        l.sent.addLast(e);
                        write(l, e);
                    }
                }
            } finally {
                lock.unlock();
            }
            startReader(l);
        }

        @Override
        void onReply(Link<Echo> l, Object reply) {
            Echo e;
            lock.lock();
            try {
                e = l.sent.pollFirst();
            } finally {
                lock.unlock();
            }
            e.complete(reply);
        }

        @Override
        List<Echo> onLost(List<Echo> sent, boolean wasLive, Throwable cause) {
            return sent;
        }

        @Override
        void settleLost(List<Echo> failed, Throwable cause) {
            failed.forEach(e -> e.fail(Failures.lost(maskedUri, cause)));
        }
    }

    /**
     * Answers the handshake, echoes {@code ECHO} unless told not to, and records what it was sent. Closed, it refuses
     * connections before it drops those it has, so a client that sees its link drop finds the port refusing.
     */
    private static final class FakeRedis implements AutoCloseable {
        private final ServerSocket listener;
        private final Thread acceptor;
        private final List<Socket> connections = new CopyOnWriteArrayList<>();
        final List<String> received = new CopyOnWriteArrayList<>();
        volatile boolean answering = true;

        FakeRedis(int port) throws IOException {
            listener = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
            acceptor = Daemons.start("fake-redis-accept", this::accept);
        }

        int port() {
            return listener.getLocalPort();
        }

        int accepted() {
            return connections.size();
        }

        private void accept() {
            try {
                while (true) {
                    Socket socket = listener.accept();
                    if (listener.isClosed()) { // taken while the listener closed: it is not served
                        Connection.closeQuietly(socket);
                        return;
                    }
                    connections.add(socket);
                    Daemons.start("fake-redis-serve", () -> serve(socket));
                }
            } catch (IOException e) {
                // closed
            }
        }

        private void serve(Socket socket) {
            try {
                RespReader in = new RespReader(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                while (true) {
                    List<?> command = (List<?>) in.read();
                    String reply = "+OK\r\n"; // CLIENT SETNAME
                    if (command.get(0).equals("PING")) {
                        reply = "+PONG\r\n";
                    } else if (command.get(0).equals("ECHO")) {
                        received.add((String) command.get(1));
                        reply = answering ? "+" + command.get(1) + "\r\n" : null;
                    }
                    if (reply != null) {
                        out.write(reply.getBytes(StandardCharsets.UTF_8));
                    }
                }
            } catch (IOException e) {
                Connection.closeQuietly(socket);
            }
        }

        void dropConnections() {
            connections.forEach(Connection::closeQuietly);
        }

        /**
         * Closes the listener and waits for the accepting thread to leave {@code accept()} before dropping the
         * connections. Closing a listener that a thread is blocked on only signals that thread: the socket stays open
         * in the kernel, completing handshakes, until the thread leaves the call, and its accept can still return a
         * connection (a reconnect of the client this close is dropping, on a loaded host). Once the thread is gone, the
         * port refuses.
         */
        @Override
        public void close() throws IOException {
            listener.close();
            try {
                acceptor.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            assertThat(acceptor.isAlive())
                    .as("the fake server's accepting thread left accept()")
                    .isFalse();
            dropConnections();
        }
    }
}
