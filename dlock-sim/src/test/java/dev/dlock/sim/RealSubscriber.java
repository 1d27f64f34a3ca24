package dev.dlock.sim;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A pub/sub connection to the real server for {@link DifferentialIT}: subscribes to channels (classic and sharded) and
 * drains the messages that arrived. A drain sends PING: Redis queued every message published before it on this
 * connection ahead of its pong, so reading up to the pong reads them all.
 */
final class RealSubscriber implements AutoCloseable {
    private final Socket socket = new Socket();
    private final InputStream in;
    private final OutputStream out;

    RealSubscriber(String host, int port, List<String> channels) throws IOException {
        socket.connect(new InetSocketAddress(host, port), 5_000);
        socket.setSoTimeout(5_000);
        in = new BufferedInputStream(socket.getInputStream());
        out = socket.getOutputStream();
        for (String command : new String[] {"SUBSCRIBE", "SSUBSCRIBE"}) {
            List<String> argv = new ArrayList<>(List.of(command));
            argv.addAll(channels);
            send(argv);
            for (int i = 0; i < channels.size(); i++) {
                read(); // the confirmations
            }
        }
    }

    /** The messages received since the last drain, each "kind channel message" (kind: message or smessage). */
    List<String> drain() throws IOException {
        send(List.of("PING"));
        List<String> messages = new ArrayList<>();
        while (true) {
            List<?> item = (List<?>) read();
            if (item.get(0).equals("pong")) {
                return messages;
            }
            messages.add(item.get(0) + " " + item.get(1) + " " + item.get(2));
        }
    }

    private void send(List<String> argv) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        buffer.writeBytes(("*" + argv.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String a : argv) {
            byte[] bytes = a.getBytes(StandardCharsets.UTF_8);
            buffer.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            buffer.writeBytes(bytes);
            buffer.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.write(buffer.toByteArray());
        out.flush();
    }

    private Object read() throws IOException {
        int type = in.read();
        String line = line();
        switch (type) {
            case ':':
                return Long.parseLong(line);
            case '+':
                return line;
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(n + 2);
                return new String(data, 0, n, StandardCharsets.UTF_8);
            }
            case '*': {
                List<Object> items = new ArrayList<>();
                for (int i = 0, n = Integer.parseInt(line); i < n; i++) {
                    items.add(read());
                }
                return items;
            }
            default:
                throw new IOException("unexpected reply " + (char) type + line);
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\r'; b = in.read()) {
            if (b < 0) {
                throw new EOFException();
            }
            line.write(b);
        }
        in.read(); // '\n'
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
