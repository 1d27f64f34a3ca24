package dev.dlock.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback TCP proxy between one client and Redis, with these network faults: {@link #freeze(boolean) freeze}
 * (bytes are no longer forwarded in either direction, connections stay open, as with a partition that drops nothing),
 * {@link #latency(Duration) latency} (every chunk is held back before it is forwarded), {@link
 * #pubsubLag(Duration) pub/sub lag} (only what Redis sends on a connection that has sent SUBSCRIBE is delivered late,
 * each chunk by the same lag, order kept: the grant path lags behind the command path), {@link
 * #commandLag(Duration) command lag} (the same for what Redis sends on the other connections: replies late; set apart
 * from the pub/sub lag, the two paths arrive out of step), {@link #failNext(String) a failed command} (the next command
 * carrying a marker is answered with an error by the proxy and never reaches Redis)
 * and {@link #cut(Set) cut} (connections closed and new ones refused, but for those named to survive: a partition that
 * resets). {@link #nextCommand(String)} tells when a command carrying a marker went through, so a script can time a
 * fault to one command. Two threads per connection, one more for a connection's delayed deliveries. Thread-safe.
 */
final class TcpProxy implements AutoCloseable {

    private static final byte[] REFUSED =
            "-ERR dlock-verify: command failed by the proxy\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Map<Socket, Socket> upstreamOf = new ConcurrentHashMap<>(); // downstream socket -> its upstream
    private volatile boolean cut;
    private volatile boolean frozen;
    private volatile long latencyNanos;
    private volatile long pubsubLagNanos;
    private volatile long commandLagNanos;
    private final AtomicLong lateReplies = new AtomicLong();
    private final List<Marked> marked = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /**
     * A command marker waited for: {@code fail} closes the connection instead of forwarding the command.
     *
     * @param marker text the command's bytes contain (RESP, ISO-8859-1)
     * @param fail whether the command is dropped with its connection instead of being forwarded
     * @param seen completed with the {@code nanoTime} at which the command went through (or was dropped)
     */
    private record Marked(String marker, boolean fail, long replyLagNanos, CompletableFuture<Long> seen) {}

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        daemon("dlock-proxy-accept", this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    void freeze(boolean freeze) {
        this.frozen = freeze;
    }

    void latency(Duration latency) {
        this.latencyNanos = latency.toNanos();
    }

    void pubsubLag(Duration lag) {
        this.pubsubLagNanos = lag.toNanos();
    }

    /**
     * Delivers what Redis sends on every connection that has not subscribed (command replies) {@code lag} late, each
     * chunk by the lag in force when it arrived, order kept; zero ends it for chunks that arrive from now on.
     */
    void commandLag(Duration lag) {
        this.commandLagNanos = lag.toNanos();
    }

    /** How many reply chunks of command connections the {@link #commandLag(Duration) command lag} has held back. */
    long lateReplies() {
        return lateReplies.get();
    }

    /**
     * Completes with the {@code nanoTime} at which the next command whose bytes contain {@code marker} was forwarded
     * to Redis on a connection that has not subscribed.
     */
    CompletableFuture<Long> nextCommand(String marker) {
        return lagReplyTo(marker, Duration.ZERO);
    }

    /**
     * As {@link #nextCommand(String)}, and the reply to that command (the next chunk Redis sends on its connection) is
     * delivered {@code lag} late, order kept: one late reply, timed to the command itself with no race against the
     * client's next send.
     */
    CompletableFuture<Long> lagReplyTo(String marker, Duration lag) {
        Marked m = new Marked(marker, false, lag.toNanos(), new CompletableFuture<>());
        marked.add(m);
        return m.seen();
    }

    /**
     * Makes the next command whose bytes contain {@code marker} (on a connection that has not subscribed) fail: the
     * proxy answers it with an error reply and does not forward it, so Redis never runs it and the connection stays
     * open (closing it would not do: a client that re-sends its commands after a reconnect, as Lettuce does, would
     * run it after all). Meant for a connection with that one command in flight: its chunk is dropped whole.
     * Completes with the {@code nanoTime} at which it was answered.
     */
    CompletableFuture<Long> failNext(String marker) {
        Marked m = new Marked(marker, true, 0, new CompletableFuture<>());
        marked.add(m);
        return m.seen();
    }

    /**
     * Cuts the target off from this proxy's clients, as a network partition on loopback: from now until {@link #heal()}
     * a new connection is closed as soon as it is accepted, and every open one is closed but those whose upstream
     * socket (this proxy's connection to the target) has a local port in {@code survivors}: the target lists those in
     * {@code CLIENT LIST} as {@code addr}, which is how a caller names the connections of clients on the target's side
     * of the partition. A partition that resets rather than drops: a dropped one would leave every client's connection
     * open until a timeout or keep-alive noticed, which measures the client's timeouts, not the failover.
     *
     * @param survivors local ports of upstream sockets whose connections stay open
     */
    void cut(Set<Integer> survivors) {
        cut = true;
        upstreamOf.forEach((downstream, upstream) -> {
            if (!survivors.contains(upstream.getLocalPort())) {
                closeQuietly(downstream);
                closeQuietly(upstream);
            }
        });
    }

    /** Ends a {@link #cut(Set) cut}: new connections are forwarded again. */
    void heal() {
        cut = false;
    }

    /** One proxied connection: whether the client has subscribed on it, and its delay line towards the client. */
    private final class Link {
        private volatile boolean pubsub;
        private volatile long replyLagNanos; // the lag of the next reply, set by lagReplyTo
        private final BlockingQueue<Object[]> late = new LinkedBlockingQueue<>();
        private volatile Thread deliverer;

        void deliverLate(OutputStream out, byte[] chunk, long lagNanos) {
            if (deliverer == null) {
                deliverer = daemon("dlock-proxy-late", () -> deliver(out));
            }
            late.add(new Object[] {System.nanoTime() + lagNanos, chunk});
        }

        private void deliver(OutputStream out) {
            try {
                while (!closed) {
                    Object[] next = late.take();
                    if (next.length == 0) {
                        return;
                    }
                    sleep((Long) next[0] - System.nanoTime());
                    byte[] chunk = (byte[]) next[1];
                    write(out, chunk, chunk.length);
                }
            } catch (IOException | InterruptedException e) {
                // the connection closed: the client reconnects
            }
        }

        void close() {
            late.add(new Object[0]);
        }

        /** Every write towards the client goes through here: replies, late deliveries and the proxy's own errors. */
        synchronized void write(OutputStream out, byte[] bytes, int length) throws IOException {
            out.write(bytes, 0, length);
            out.flush();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket downstream = server.accept();
                if (cut) {
                    downstream.close();
                    continue;
                }
                Socket upstream = new Socket();
                try {
                    upstream.connect(new InetSocketAddress(targetHost, targetPort), 5000);
                } catch (IOException e) {
                    downstream.close();
                    continue;
                }
                downstream.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(downstream);
                sockets.add(upstream);
                upstreamOf.put(downstream, upstream);
                if (cut) { // cut while this one connected: it is not among the survivors
                    closeQuietly(downstream);
                    closeQuietly(upstream);
                    continue;
                }
                Link link = new Link();
                daemon("dlock-proxy-up", () -> pump(downstream, upstream, link, false));
                daemon("dlock-proxy-down", () -> pump(upstream, downstream, link, true));
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to, Link link, boolean towardsClient) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                while (frozen && !closed) {
                    sleep(2_000_000L);
                }
                sleep(latencyNanos);
                if (!towardsClient && !link.pubsub && subscribes(buffer, read)) {
                    link.pubsub = true;
                }
                if (!towardsClient && !link.pubsub && !marked.isEmpty() && dropsMarked(link, buffer, read)) {
                    link.write(from.getOutputStream(), REFUSED, REFUSED.length);
                    continue; // answered here, never forwarded
                }
                long lag = link.pubsub ? pubsubLagNanos : commandLagNanos;
                if (towardsClient && !link.pubsub && link.replyLagNanos > 0) {
                    lag = link.replyLagNanos;
                    link.replyLagNanos = 0;
                }
                if (towardsClient && (lag > 0 || link.deliverer != null)) {
                    // once a chunk went the late way, every later one follows it: the order is kept
                    if (!link.pubsub && lag > 0) {
                        lateReplies.incrementAndGet();
                    }
                    link.deliverLate(out, java.util.Arrays.copyOf(buffer, read), lag);
                } else {
                    if (towardsClient) {
                        link.write(out, buffer, read);
                    } else {
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            }
        } catch (IOException e) {
            // one side closed or reset: close both, the client reconnects
        } finally {
            link.close();
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /**
     * Completes the markers a chunk from the client carries, marking it first (the wait for it then sees the command
     * about to go through); tells whether one of them asks for the command to be dropped.
     */
    private boolean dropsMarked(Link link, byte[] buffer, int length) {
        String text = new String(buffer, 0, length, java.nio.charset.StandardCharsets.ISO_8859_1);
        boolean drop = false;
        for (Marked m : marked) {
            if (text.contains(m.marker()) && marked.remove(m)) {
                drop |= m.fail();
                if (m.replyLagNanos() > 0) {
                    link.replyLagNanos = m.replyLagNanos(); // set before the command goes: its reply comes after
                }
                m.seen().complete(System.nanoTime());
            }
        }
        return drop;
    }

    /** Whether a chunk from the client carries a SUBSCRIBE or PSUBSCRIBE command (RESP text, any case). */
    static boolean subscribes(byte[] buffer, int length) {
        String text = new String(buffer, 0, length, java.nio.charset.StandardCharsets.ISO_8859_1);
        return text.toUpperCase(java.util.Locale.ROOT).contains("SUBSCRIBE\r\n");
    }

    /** Closes every proxied connection (the client sees a reset and reconnects), keeping the listener. */
    void dropConnections() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        dropConnections();
    }

    private void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // already closed
        }
        if (closeable instanceof Socket socket) {
            sockets.remove(socket);
            upstreamOf.remove(socket);
        }
    }

    private static void sleep(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
