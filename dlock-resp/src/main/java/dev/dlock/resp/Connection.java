package dev.dlock.resp;

import dev.dlock.LockAuthenticationException;
import dev.dlock.LockConfigurationException;
import dev.dlock.LockConnectionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * One connected and authenticated socket. {@link #open} connects, then sends {@code AUTH},
 * {@code SELECT}, {@code CLIENT SETNAME} and {@code PING} in one write and reads their replies, all
 * within the timeout. After that the socket blocks without a read timeout: the transport's timer
 * enforces the command timeout.
 */
final class Connection implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final RespReader reader;

    private Connection(Socket socket, InputStream in, OutputStream out) {
        this.socket = socket;
        this.out = out;
        this.reader = new RespReader(in);
    }

    /**
     * Connects and runs the handshake.
     *
     * @throws LockConnectionException if Redis cannot be reached or does not answer in time
     * @throws LockAuthenticationException if Redis refuses the credentials
     * @throws LockConfigurationException if Redis refuses the URI's database index
     */
    static Connection open(RedisEndpoint endpoint, String clientName, Duration timeout, String maskedUri) {
        return open(endpoint, clientName, timeout, maskedUri, false);
    }

    /**
     * Connects and runs the handshake; with {@code requireMaster}, {@code ROLE} goes with it, and a
     * server that is not a master is refused.
     *
     * @throws NotMasterException if {@code requireMaster} and the server is a replica (or a sentinel)
     * @throws LockConnectionException if Redis cannot be reached or does not answer in time
     * @throws LockAuthenticationException if Redis refuses the credentials
     * @throws LockConfigurationException if Redis refuses the URI's database index
     */
    static Connection open(
            RedisEndpoint endpoint, String clientName, Duration timeout, String maskedUri, boolean requireMaster) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), remainingMillis(deadline));
            if (endpoint.tls()) {
                socket = startTls(socket, endpoint, deadline);
            }
            Connection connection = new Connection(socket, socket.getInputStream(), socket.getOutputStream());
            connection.handshake(endpoint, clientName, deadline, maskedUri, requireMaster);
            socket.setSoTimeout(0);
            return connection;
        } catch (SocketTimeoutException e) {
            closeQuietly(socket);
            throw new LockConnectionException(
                    maskedUri, "cannot connect to Redis: Redis did not answer in time (" + timeout + ")", e);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new LockConnectionException(maskedUri, "cannot connect to Redis: " + Failures.describe(e), e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    private static Socket startTls(Socket plain, RedisEndpoint endpoint, long deadline) throws IOException {
        SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault())
                .createSocket(plain, endpoint.host(), endpoint.port(), true);
        SSLParameters parameters = ssl.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // check the certificate names this host
        ssl.setSSLParameters(parameters);
        ssl.setSoTimeout(remainingMillis(deadline));
        ssl.startHandshake();
        return ssl;
    }

    private void handshake(
            RedisEndpoint endpoint, String clientName, long deadline, String maskedUri, boolean requireMaster)
            throws IOException {
        CommandBuffer commands = new CommandBuffer();
        int replies = 0;
        int selectReply = -1;
        if (endpoint.password() != null) {
            if (endpoint.user() != null) {
                commands.command(3).bulk("AUTH").bulk(endpoint.user()).bulk(endpoint.password());
            } else {
                commands.command(2).bulk("AUTH").bulk(endpoint.password());
            }
            replies++;
        }
        if (endpoint.database() != 0) {
            commands.command(2).bulk("SELECT").bulk(endpoint.database());
            selectReply = replies++;
        }
        commands.command(3).bulk("CLIENT").bulk("SETNAME").bulk(clientName);
        if (requireMaster) {
            commands.command(1).bulk("ROLE");
            replies++;
        }
        commands.command(1).bulk("PING");
        replies += 2;
        commands.writeTo(out);
        RuntimeException failure = null;
        Object role = null;
        for (int i = 0; i < replies; i++) {
            socket.setSoTimeout(remainingMillis(deadline));
            // Redis answers every command even after a refused AUTH (with NOAUTH), so read them all.
            Object reply = reader.read();
            if (reply instanceof ErrorReply error && failure == null) {
                failure = handshakeFailure(error.message(), maskedUri, i == selectReply ? endpoint.database() : -1);
            }
            if (requireMaster && i == replies - 2) {
                role = reply;
            }
        }
        if (failure != null) {
            throw failure;
        }
        if (requireMaster && !(role instanceof List<?> parts && !parts.isEmpty() && "master".equals(parts.get(0)))) {
            String named = role instanceof List<?> parts && !parts.isEmpty() ? String.valueOf(parts.get(0)) : role + "";
            throw new NotMasterException(maskedUri, endpoint.address(), named);
        }
    }

    /** The exception for an error reply in the handshake; {@code database} when it answered SELECT, else -1. */
    private static RuntimeException handshakeFailure(String message, String maskedUri, int database) {
        if (isAuthenticationError(message)
                || message.contains("invalid password")
                || message.contains("invalid username-password")) {
            return new LockAuthenticationException(maskedUri, "Redis refused the credentials: " + message, null);
        }
        if (database >= 0 && message.startsWith("ERR")) {
            // "ERR DB index is out of range": only another URI (or server) helps, so not a connection failure
            return new LockConfigurationException(
                    maskedUri, "Redis refused database " + database + " of the URI: " + message, null);
        }
        return new LockConnectionException(maskedUri, "cannot connect to Redis: " + message, null);
    }

    static boolean isAuthenticationError(String message) {
        return message.startsWith("NOAUTH") || message.startsWith("WRONGPASS");
    }

    private static int remainingMillis(long deadline) throws SocketTimeoutException {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new SocketTimeoutException("connect timed out");
        }
        return (int) Math.min(Integer.MAX_VALUE, left);
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do with it
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }
}
