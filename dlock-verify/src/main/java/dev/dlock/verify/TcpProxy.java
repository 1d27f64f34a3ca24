package dev.dlock.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy between one client and Redis, with four network faults: {@link #freeze(boolean) freeze}
 * (bytes are no longer forwarded in either direction, connections stay open, as with a partition that drops nothing),
 * {@link #latency(Duration) latency} (every chunk is held back before it is forwarded), {@link
 * #pubsubLag(Duration) pub/sub lag} (only what Redis sends on a connection that has sent SUBSCRIBE is delivered late,
 * each chunk by the same lag, order kept: the grant path lags behind the command path) and {@link #cut(Set) cut}
 * (connections closed and new ones refused, but for those named to survive: a partition that resets). Two threads
 * per connection, one more for a pub/sub connection's delayed deliveries. Thread-safe.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Map<Socket, Socket> upstreamOf = new ConcurrentHashMap<>(); // downstream socket -> its upstream
    private volatile boolean cut;
    private volatile boolean frozen;
    private volatile long latencyNanos;
    private volatile long pubsubLagNanos;
    private volatile boolean closed;

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
        private final BlockingQueue<Object[]> late = new LinkedBlockingQueue<>();
        private volatile Thread deliverer;

        void deliverLate(OutputStream out, byte[] chunk) {
            if (deliverer == null) {
                deliverer = daemon("dlock-proxy-late", () -> deliver(out));
            }
            late.add(new Object[] {System.nanoTime() + pubsubLagNanos, chunk});
        }

        private void deliver(OutputStream out) {
            try {
                while (!closed) {
                    Object[] next = late.take();
                    if (next.length == 0) {
                        return;
                    }
                    sleep((Long) next[0] - System.nanoTime());
                    out.write((byte[]) next[1]);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the connection closed: the client reconnects
            }
        }

        void close() {
            late.add(new Object[0]);
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
                if (towardsClient && link.pubsub && (pubsubLagNanos > 0 || link.deliverer != null)) {
                    link.deliverLate(out, java.util.Arrays.copyOf(buffer, read));
                } else {
                    out.write(buffer, 0, read);
                    out.flush();
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
