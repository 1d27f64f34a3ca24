package dev.dlock.testkit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Minimal blocking RESP2 client over one socket; used for readiness checks and {@link RedisServer#command}, and by
 * tests whose child JVMs ({@link JvmProcess}) talk to a server they only know by host and port. Not thread-safe: one
 * connection per caller.
 */
public final class RespConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * Connects and, when {@code password} is not null, authenticates.
     *
     * @param host the server's host
     * @param port the server's port
     * @param password the password, or {@code null} for none
     * @param timeout connect and read timeout, positive (not scaled)
     * @return the open connection; close it when done
     * @throws IOException if the connection fails or times out
     * @throws RedisErrorReply if Redis refuses the password
     */
    public static RespConnection open(String host, int port, String password, Duration timeout) throws IOException {
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            RespConnection connection = new RespConnection(socket);
            if (password != null) {
                connection.call("AUTH", password);
            }
            return connection;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends one command and returns the decoded reply.
     *
     * @param args the command and its arguments, for example {@code "INCR", "counter"}
     * @return the reply, decoded as {@link RedisServer#command(String...)} describes
     * @throws IOException if the connection fails or times out
     * @throws RedisErrorReply if Redis answers with an error
     */
    public Object call(String... args) throws IOException {
        if (args.length == 0) {
            throw new IllegalArgumentException("a command needs at least one argument");
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        writeAscii(buffer, "*" + args.length + "\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            writeAscii(buffer, "$" + bytes.length + "\r\n");
            buffer.write(bytes);
            writeAscii(buffer, "\r\n");
        }
        out.write(buffer.toByteArray());
        out.flush();
        Object reply = read();
        if (reply instanceof RedisErrorReply) {
            throw (RedisErrorReply) reply;
        }
        return reply;
    }

    /** Like {@link #call} but wraps I/O failures in {@link UncheckedIOException}. */
    Object callUnchecked(String... args) {
        try {
            return call(args);
        } catch (IOException e) {
            throw new UncheckedIOException("Redis command " + args[0] + " failed: " + e.getMessage(), e);
        }
    }

    private Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by server");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                return new RedisErrorReply(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(length);
                if (data.length != length || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("truncated bulk string");
                }
                return new String(data, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("unexpected RESP type byte '" + (char) type + "' followed by: " + line);
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed in the middle of a reply");
            }
            if (b == '\r') {
                if (in.read() != '\n') {
                    throw new IOException("malformed RESP line ending");
                }
                return line.toString(StandardCharsets.UTF_8);
            }
            line.write(b);
        }
    }

    private static void writeAscii(ByteArrayOutputStream buffer, String text) {
        buffer.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Closes the socket; idempotent. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing useful to do
        }
    }
}
