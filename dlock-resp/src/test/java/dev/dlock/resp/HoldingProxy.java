package dev.dlock.resp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a Redis server that can hold back what Redis sends on pub/sub connections (those that have
 * sent a {@code SUBSCRIBE}), as a slow network would: Redis has subscribed, but the client has not seen the
 * confirmation yet. While held, those bytes are kept, in order, and delivered once released; a connection that Redis
 * closes meanwhile is closed towards the client at once, its held bytes never delivered. Other connections pass
 * through untouched.
 */
final class HoldingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private final Object monitor = new Object();
    private boolean holding; // guarded by monitor
    private volatile boolean closed;

    HoldingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        daemon("holding-proxy-accept", this::accept);
    }

    /** The proxy's URI. */
    String uri() {
        return "redis://127.0.0.1:" + server.getLocalPort();
    }

    /** From now on, what Redis sends on a pub/sub connection is kept back. */
    void hold() {
        synchronized (monitor) {
            holding = true;
        }
    }

    /** Delivers what was kept back and passes everything through from now on. */
    void release() {
        synchronized (monitor) {
            holding = false;
            for (Link link : links) {
                try {
                    link.flushHeld();
                } catch (IOException e) {
                    // that connection is closing: its held bytes go nowhere, as on a network that dropped it
                }
            }
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                Socket redis = new Socket();
                redis.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2000);
                client.setTcpNoDelay(true);
                redis.setTcpNoDelay(true);
                Link link = new Link(client, redis);
                links.add(link);
                daemon("holding-proxy-up", link::up);
                daemon("holding-proxy-down", link::down);
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("the holding proxy stopped accepting", e);
                }
            }
        }
    }

    /** One proxied connection. */
    private final class Link {
        private final Socket client;
        private final Socket redis;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream(); // guarded by monitor
        private volatile boolean pubsub;

        Link(Socket client, Socket redis) {
            this.client = client;
            this.redis = redis;
        }

        void up() {
            pump(client, redis, false);
        }

        void down() {
            pump(redis, client, true);
        }

        private void pump(Socket from, Socket to, boolean towardsClient) {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    if (!towardsClient
                            && new String(buffer, 0, read, StandardCharsets.ISO_8859_1)
                                    .toUpperCase(Locale.ROOT)
                                    .contains("SUBSCRIBE\r\n")) {
                        pubsub = true;
                    }
                    synchronized (monitor) {
                        if (towardsClient && pubsub && holding) {
                            held.write(buffer, 0, read);
                            continue;
                        }
                        out.write(buffer, 0, read);
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // one side closed or reset: close both, as a network that drops the connection would
            } finally {
                links.remove(this);
                closeQuietly(from);
                closeQuietly(to);
            }
        }

        /** Monitor held. */
        void flushHeld() throws IOException {
            if (held.size() > 0) {
                OutputStream out = client.getOutputStream();
                held.writeTo(out);
                out.flush();
                held.reset();
            }
        }
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Link link : links) {
            closeQuietly(link.client);
            closeQuietly(link.redis);
        }
    }
}
