package dev.dlock.resp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable RESP2 command encoder. ASCII strings and numbers are written straight into the buffer,
 * without the {@code byte[]} that {@code String.getBytes} or {@code Long.toString} would allocate.
 * Not thread-safe: the command channel uses it under its write lock.
 */
final class CommandBuffer {
    private static final byte[] CRLF = {'\r', '\n'};

    private byte[] buf = new byte[4096];
    private int len;

    void reset() {
        len = 0;
    }

    boolean isEmpty() {
        return len == 0;
    }

    /** Starts a command of {@code parts} bulk strings ({@code *N}). */
    CommandBuffer command(int parts) {
        ensure(16);
        buf[len++] = '*';
        number(parts);
        crlf();
        return this;
    }

    /** Appends bytes that are already RESP, such as a cached script prefix. */
    CommandBuffer raw(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
        return this;
    }

    CommandBuffer bulk(String s) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return bulk(s.getBytes(StandardCharsets.UTF_8));
            }
        }
        ensure(n + 16);
        buf[len++] = '$';
        number(n);
        crlf();
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) s.charAt(i);
        }
        crlf();
        return this;
    }

    CommandBuffer bulk(byte[] bytes) {
        ensure(bytes.length + 16);
        buf[len++] = '$';
        number(bytes.length);
        crlf();
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
        crlf();
        return this;
    }

    CommandBuffer bulk(int value) {
        ensure(24);
        int digits = digits(value);
        buf[len++] = '$';
        number(digits);
        crlf();
        number(value);
        crlf();
        return this;
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, len);
    }

    /** The encoded bytes, for the few commands built once (handshake, script prefixes). */
    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    private void crlf() {
        buf[len++] = CRLF[0];
        buf[len++] = CRLF[1];
    }

    /** Writes a non-negative int in decimal; the caller ensured the room. */
    private void number(int value) {
        int end = len + digits(value);
        int at = end;
        do {
            buf[--at] = (byte) ('0' + value % 10);
            value /= 10;
        } while (value > 0);
        len = end;
    }

    private static int digits(int value) {
        int digits = 1;
        while (value >= 10) {
            value /= 10;
            digits++;
        }
        return digits;
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}
