package dev.dlock.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One member of W5's ceiling (see {@link RingCeiling}): a token passed in strict FIFO order around the ring of client
 * processes through Redis lists. A member blocks in {@code BLPOP} on its own list; holding the token, it sends
 * {@code LPUSH} to the next member's list and its next {@code BLPOP} in one write. That is one command and one wake-up
 * of one client thread per hand-off, no lock state: nothing a FIFO hand-off between processes could leave out.
 *
 * <p>Arguments: host port id members. Prints {@code ready}, waits for {@code go START END PREFIX HOP} (monotonic nanos;
 * HOP {@code true}: a reader thread reads the socket and hands each reply to the waiting thread, as a pipelined client
 * does), passes the token until END and prints {@code done handoffs=N}, N the tokens it received inside the window.
 */
final class RingMain {
    private static final String POLL_SECONDS = "1"; // a member past the window's end leaves within a second

    private final InputStream in;
    private final OutputStream out;
    private final ConcurrentLinkedQueue<CompletableFuture<Boolean>> pending = new ConcurrentLinkedQueue<>();
    private final boolean hop;

    private RingMain(Socket socket, boolean hop) throws IOException {
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
        this.hop = hop;
    }

    public static void main(String[] args) throws IOException {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        int id = Integer.parseInt(args[2]);
        int members = Integer.parseInt(args[3]);
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Socket socket = new Socket(host, port)) {
            socket.setTcpNoDelay(true);
            System.out.println("ready");
            String[] go = stdin.readLine().split(" ");
            Window window = new Window(Long.parseLong(go[1]), Long.parseLong(go[2]));
            String own = go[3] + id;
            String next = go[3] + (id % members + 1);
            RingMain member = new RingMain(socket, Boolean.parseBoolean(go[4]));
            if (member.hop) {
                member.startReader();
            }
            System.out.println("done handoffs=" + member.pass(own, next, id == 1, window));
        }
        System.exit(0);
    }

    private long pass(String own, String next, boolean first, Window window) throws IOException {
        byte[] push = encode("LPUSH", next, "t"); // the same two commands every time: encoded once
        byte[] take = encode("BLPOP", own, POLL_SECONDS);
        if (first) {
            await(send(push)); // each ring has keys of its own: one token
        }
        long received = 0;
        CompletableFuture<Boolean> token = send(take);
        while (true) {
            boolean got = await(token);
            long now = System.nanoTime();
            if (!got) {
                if (now - window.end() >= 0) {
                    return received;
                }
                token = send(take);
                continue;
            }
            if (window.contains(now)) {
                received++;
            }
            CompletableFuture<Boolean> pushed = queue(push);
            if (now - window.end() >= 0) {
                await(pushed);
                return received;
            }
            token = send(take);
            await(pushed);
        }
    }

    private static byte[] encode(String... command) {
        StringBuilder sb =
                new StringBuilder().append('*').append(command.length).append("\r\n");
        for (String part : command) {
            sb.append('$').append(part.length()).append("\r\n").append(part).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Queues a command and writes it, with any queued before it. */
    private CompletableFuture<Boolean> send(byte[] command) throws IOException {
        CompletableFuture<Boolean> reply = queue(command);
        out.flush();
        return reply;
    }

    /** Puts a command into the output buffer; with a reader thread, also queues the future of its reply. */
    private CompletableFuture<Boolean> queue(byte[] command) throws IOException {
        CompletableFuture<Boolean> reply = new CompletableFuture<>();
        if (hop) {
            pending.add(reply); // before the bytes leave, so the reader always finds it
        }
        out.write(command);
        return reply;
    }

    /** The reply's value: false for a nil array (a {@code BLPOP} that timed out), true otherwise. */
    private boolean await(CompletableFuture<Boolean> reply) throws IOException {
        out.flush();
        return hop ? reply.join() : readReply();
    }

    private void startReader() {
        Thread reader = new Thread(
                () -> {
                    try {
                        while (true) {
                            boolean value = readReply();
                            pending.remove().complete(value);
                        }
                    } catch (IOException e) {
                        pending.forEach(f -> f.completeExceptionally(new UncheckedIOException(e)));
                    }
                },
                "ring-reader");
        reader.setDaemon(true);
        reader.start();
    }

    private boolean readReply() throws IOException {
        String line = readLine();
        switch (line.charAt(0)) {
            case '*' -> {
                int n = Integer.parseInt(line.substring(1));
                for (int i = 0; i < n; i++) {
                    readReply();
                }
                return n >= 0;
            }
            case '$' -> {
                int n = Integer.parseInt(line.substring(1));
                if (n >= 0 && in.readNBytes(n + 2).length != n + 2) {
                    throw new EOFException("Redis closed the connection");
                }
                return n >= 0;
            }
            case '-' -> throw new IOException("Redis replied with an error: " + line.substring(1));
            default -> {
                return true;
            }
        }
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) {
                throw new EOFException("Redis closed the connection");
            }
            sb.append((char) c);
        }
        in.read(); // '\n'
        return sb.toString();
    }
}
