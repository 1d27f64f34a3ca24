package dev.dlock.resp;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConnectionException;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.RedisUri.HostPort;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Finds and connects to the master of a {@code redis-sentinel://} URI: asks the sentinels in turn
 * {@code SENTINEL GET-MASTER-ADDR-BY-NAME} (without credentials: the URI's are the master's),
 * starting with the one that answered last, connects to the address named, and sends {@code ROLE}
 * with the handshake. A server that is not a master (just demoted, and still named for a moment) is
 * dropped and the sentinels are asked again, every 50 ms within the timeout.
 *
 * <p>Each sentinel gets an equal share of the time left, so that a paused sentinel (which accepts
 * the connection but never answers) does not use up the whole timeout. Thread-safe: the command and
 * the pub/sub channel share one dialer; its only state is which sentinel and master were last seen.
 */
final class SentinelDialer implements ServerDialer {
    private static final System.Logger LOG = System.getLogger("dev.dlock");
    private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final RedisUri uri;
    private final byte[] query;
    private volatile int preferred; // index of the sentinel that answered last
    private volatile String master; // address of the master last connected to, for the log

    SentinelDialer(RedisUri uri) {
        this.uri = uri;
        this.query = new CommandBuffer()
                .command(3)
                .bulk("SENTINEL")
                .bulk("GET-MASTER-ADDR-BY-NAME")
                .bulk(uri.masterName())
                .toByteArray();
    }

    @Override
    public boolean followsMaster() {
        return true;
    }

    @Override
    public Connection open(String clientName, Duration timeout, String maskedUri) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            HostPort named = askSentinels(deadline, maskedUri);
            RedisEndpoint endpoint = RedisEndpoint.at(uri, named.host(), named.port());
            NotMasterException notMaster;
            try {
                Connection connection = Connection.open(endpoint, clientName, left(deadline), maskedUri, true);
                String previous = master;
                master = endpoint.address();
                if (previous != null && !previous.equals(master)) {
                    LOG.log(
                            System.Logger.Level.INFO,
                            "dlock-resp follows master ''{0}'' of {1} from {2} to {3}",
                            uri.masterName(),
                            maskedUri,
                            previous,
                            master);
                }
                return connection;
            } catch (NotMasterException e) {
                notMaster = e;
            } catch (LockAuthenticationException e) {
                throw e;
            } catch (LockConnectionException e) {
                throw new LockConnectionException(
                        maskedUri,
                        "cannot connect to master '" + uri.masterName() + "' at " + endpoint.address()
                                + " (named by the sentinels): " + withoutUri(e.getMessage(), maskedUri),
                        e);
            }
            if (deadline - System.nanoTime() <= RETRY_NANOS) {
                throw new LockConnectionException(
                        maskedUri,
                        "the sentinels name " + endpoint.address() + " as master '" + uri.masterName()
                                + "', but it is not a master: " + notMaster.getMessage(),
                        notMaster);
            }
            LockSupport.parkNanos(RETRY_NANOS);
        }
    }

    /** A {@link LockConnectionException}'s message without the URI it ends with, to be wrapped. */
    private static String withoutUri(String message, String maskedUri) {
        String suffix = " [" + maskedUri + "]";
        return message.endsWith(suffix) ? message.substring(0, message.length() - suffix.length()) : message;
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
    }

    /** The master's address as the first sentinel that knows it says. */
    private HostPort askSentinels(long deadline, String maskedUri) {
        List<HostPort> sentinels = uri.hosts();
        int n = sentinels.size();
        int first = preferred;
        List<String> failures = new ArrayList<>();
        List<String> unknowing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = (first + i) % n;
            HostPort sentinel = sentinels.get(index);
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                failures.add(sentinel + ": not asked, out of time");
                continue;
            }
            try {
                Object reply = ask(sentinel, left / (n - i));
                if (reply instanceof List<?> address && address.size() == 2) {
                    preferred = index;
                    return new HostPort(
                            String.valueOf(address.get(0)), Integer.parseInt(String.valueOf(address.get(1))));
                } else if (reply == null) {
                    unknowing.add(sentinel.toString());
                } else {
                    failures.add(sentinel + ": " + (reply instanceof ErrorReply e ? e.message() : "answered " + reply));
                }
            } catch (IOException e) {
                failures.add(sentinel + ": " + Failures.describe(e));
            } catch (RuntimeException e) {
                failures.add(sentinel + ": " + e);
            }
        }
        if (failures.isEmpty()) {
            throw new LockConnectionException(
                    maskedUri,
                    "the sentinels do not know master '" + uri.masterName() + "' (asked " + unknowing + ")",
                    null);
        }
        throw new LockConnectionException(
                maskedUri,
                "no sentinel answered for master '" + uri.masterName() + "': " + String.join("; ", failures)
                        + (unknowing.isEmpty() ? "" : "; do not know it: " + unknowing),
                null);
    }

    private Object ask(HostPort sentinel, long budgetNanos) throws IOException {
        long deadline = System.nanoTime() + budgetNanos;
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(sentinel.host(), sentinel.port()), millisLeft(deadline));
            socket.setSoTimeout(millisLeft(deadline));
            socket.getOutputStream().write(query);
            return new RespReader(socket.getInputStream()).read();
        }
    }

    private static int millisLeft(long deadline) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
    }
}
