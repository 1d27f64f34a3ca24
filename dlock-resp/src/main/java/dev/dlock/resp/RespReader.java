package dev.dlock.resp;

import dev.dlock.spi.RedisReplyException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes RESP2 replies from a blocking stream into {@link Long}, {@link String}, {@link List} (of
 * those, nested), {@code null} for nil, and {@link ErrorReply}. Integers are parsed straight from
 * the read buffer. Not thread-safe: one reader thread owns it.
 */
final class RespReader {
    private final InputStream in;
    private final byte[] buf = new byte[16 * 1024];
    private int pos;
    private int limit;

    RespReader(InputStream in) {
        this.in = in;
    }

    /**
     * Reads one whole reply, blocking until it has arrived.
     *
     * @throws EOFException if the server closed the connection
     * @throws IOException if the connection failed or sent something that is not RESP2
     */
    Object read() throws IOException {
        byte type = next();
        switch (type) {
            case ':':
                return readLong();
            case '$':
                return readBulk();
            case '+':
                return readLine();
            case '-':
                return new ErrorReply(readLine());
            case '*':
                return readArray();
            default:
                throw new IOException(notResp(pos - 1));
        }
    }

    /**
     * What answered instead of Redis, from the bytes already read (no further read, which could block): {@code an
     * HTTP server answered, not Redis (HTTP/1.1 400 Bad Request)}, else the start of its first line.
     */
    private String notResp(int start) {
        StringBuilder line = new StringBuilder();
        for (int i = start; i < limit && i - start < 80 && buf[i] != '\r' && buf[i] != '\n'; i++) {
            int b = buf[i] & 0xff;
            if (b >= 0x20 && b < 0x7f) {
                line.append((char) b);
            } else {
                line.append(String.format("\\x%02x", b));
            }
        }
        if (line.toString().startsWith("HTTP/")) {
            return "an HTTP server answered, not Redis (" + line + ")";
        }
        return "not a RESP2 reply, so not Redis: it starts with '" + line + "'";
    }

    private Object readArray() throws IOException {
        long n = readLong();
        if (n < 0) {
            return null;
        }
        List<Object> list = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            Object element = read();
            // A nested error (a script returning redis.error_reply in a table) stays an error value.
            list.add(element instanceof ErrorReply e ? new RedisReplyException(e.message(), null) : element);
        }
        return list;
    }

    private String readBulk() throws IOException {
        long n = readLong();
        if (n < 0) {
            return null;
        }
        int length = Math.toIntExact(n);
        String s;
        if (length + 2 <= buf.length) {
            fill(length + 2);
            s = new String(buf, pos, length, StandardCharsets.UTF_8);
            pos += length + 2;
        } else {
            byte[] big = new byte[length];
            int have = Math.min(limit - pos, length);
            System.arraycopy(buf, pos, big, 0, have);
            pos += have;
            while (have < length) {
                int r = in.read(big, have, length - have);
                if (r < 0) {
                    throw new EOFException("Redis closed the connection");
                }
                have += r;
            }
            fill(2);
            pos += 2;
            s = new String(big, StandardCharsets.UTF_8);
        }
        return s;
    }

    /** Reads a signed decimal up to CRLF, without allocating. */
    private long readLong() throws IOException {
        boolean negative = false;
        long value = 0;
        byte b = next();
        if (b == '-') {
            negative = true;
            b = next();
        }
        while (b != '\r') {
            if (b < '0' || b > '9') {
                throw new IOException("not a RESP2 number: byte " + (b & 0xff));
            }
            value = value * 10 + (b - '0');
            b = next();
        }
        next(); // '\n'
        return negative ? -value : value;
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder();
        for (byte b = next(); b != '\r'; b = next()) {
            line.append((char) (b & 0xff));
        }
        next(); // '\n'
        return new String(line.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private byte next() throws IOException {
        if (pos == limit) {
            fill(1);
        }
        return buf[pos++];
    }

    /** Makes at least {@code n <= buf.length} unread bytes available, compacting the buffer if needed. */
    private void fill(int n) throws IOException {
        if (limit - pos >= n) {
            return;
        }
        if (buf.length - pos < n) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        while (limit - pos < n) {
            int r = in.read(buf, limit, buf.length - limit);
            if (r < 0) {
                throw new EOFException("Redis closed the connection");
            }
            limit += r;
        }
    }
}
