package dev.dlock.verify;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP proxy between one client and Redis, with two network faults: {@link #freeze(boolean) freeze} (bytes
 * are no longer forwarded in either direction, connections stay open, as with a partition that drops nothing) and
 * {@link #latency(Duration) latency} (every chunk is held back before it is forwarded). One thread per direction per
 * connection. Thread-safe.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean frozen;
    private volatile long latencyNanos;
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

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket downstream = server.accept();
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
                daemon("dlock-proxy-up", () -> pump(downstream, upstream));
                daemon("dlock-proxy-down", () -> pump(upstream, downstream));
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                while (frozen && !closed) {
                    sleep(2_000_000L);
                }
                sleep(latencyNanos);
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed or reset: close both, the client reconnects
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
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

    private static void daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
    }
}
