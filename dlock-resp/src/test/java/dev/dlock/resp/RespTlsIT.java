package dev.dlock.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dlock.LockConnectionException;
import dev.dlock.spi.Transport;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.Timing;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rediss://} against a redis-server with a TLS port and a certificate made by openssl for this
 * test; the client trusts it through the JVM's default trust store properties, which must be set
 * before anything in this JVM first uses TLS (nothing else in this module's tests does). Skipped
 * when openssl or keytool is missing, or the redis-server was built without TLS.
 */
final class RespTlsIT {
    // a cold TLS handshake on a loaded 2-core host took over 2 s; the command timeout of the connect too
    private static final Duration TIMEOUT = Timing.scaled(Duration.ofSeconds(10));

    @Test
    void rediss_connectsOverTls_checkingTheCertificate_andSubscribes(@TempDir Path dir) throws Exception {
        assumeTrue(run(dir, "openssl", "version") && run(dir, "keytool", "-help"), "openssl and keytool needed");
        assumeTrue(
                run(
                        dir,
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-keyout",
                        "ca.key",
                        "-out",
                        "ca.crt",
                        "-days",
                        "2",
                        "-subj",
                        "/CN=dlock-test-ca"),
                "openssl could not make a CA");
        Files.writeString(dir.resolve("san.cnf"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        assertThat(run(
                        dir,
                        "openssl",
                        "req",
                        "-newkey",
                        "rsa:2048",
                        "-nodes",
                        "-keyout",
                        "server.key",
                        "-out",
                        "server.csr",
                        "-subj",
                        "/CN=localhost"))
                .isTrue();
        assertThat(run(
                        dir,
                        "openssl",
                        "x509",
                        "-req",
                        "-in",
                        "server.csr",
                        "-CA",
                        "ca.crt",
                        "-CAkey",
                        "ca.key",
                        "-CAcreateserial",
                        "-out",
                        "server.crt",
                        "-days",
                        "2",
                        "-extfile",
                        "san.cnf"))
                .isTrue();
        assertThat(run(
                        dir,
                        "keytool",
                        "-importcert",
                        "-noprompt",
                        "-alias",
                        "ca",
                        "-file",
                        "ca.crt",
                        "-keystore",
                        "trust.p12",
                        "-storetype",
                        "PKCS12",
                        "-storepass",
                        "changeit"))
                .isTrue();
        int tlsPort = freePort();
        RedisServer server;
        try {
            server = RedisServer.builder()
                    .extraArgs(
                            "--tls-port", Integer.toString(tlsPort),
                            "--tls-cert-file", dir.resolve("server.crt").toString(),
                            "--tls-key-file", dir.resolve("server.key").toString(),
                            "--tls-ca-cert-file", dir.resolve("ca.crt").toString(),
                            "--tls-auth-clients", "no")
                    .start();
        } catch (IllegalStateException e) {
            assumeTrue(false, "this redis-server does not start with a TLS port: " + e.getMessage());
            return;
        }
        System.setProperty("javax.net.ssl.trustStore", dir.resolve("trust.p12").toString());
        System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
        System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
        try (server;
                Transport transport =
                        new RespTransportFactory().connect(Scripts.config("rediss://127.0.0.1:" + tlsPort, TIMEOUT))) {
            assertThat(transport.eval(Scripts.ECHO_NUMBER, new String[0], new String[] {"42"}))
                    .succeedsWithin(TIMEOUT)
                    .isEqualTo(42L);
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            transport.onMessage((channel, message) -> received.add(message));
            transport.subscribe("tls").get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            server.command("PUBLISH", "tls", "hello");
            assertThat(received.poll(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("hello");
            List<?> clients = List.of(((String) server.command("CLIENT", "LIST")).split("\n"));
            assertThat(clients).anyMatch(c -> c.toString().contains("name=dlock-resp-test"));
            // rediss:// to the plain port: the TLS handshake fails, reported as a connection error.
            assertThatThrownBy(() -> new RespTransportFactory()
                            .connect(Scripts.config("rediss://127.0.0.1:" + server.port(), TIMEOUT)))
                    .isInstanceOf(LockConnectionException.class);
        }
    }

    private static boolean run(Path dir, String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("tool.log").toFile())
                    .start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
