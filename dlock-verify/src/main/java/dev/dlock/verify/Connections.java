package dev.dlock.verify;

import dev.dlock.LockClient;
import dev.dlock.lettuce.LettuceTransportFactory;
import dev.dlock.spi.TransportFactory;
import io.lettuce.core.RedisURI;
import java.net.URI;
import java.time.Duration;

/** How the run's clients are built and where they connect: dlock clients, Lettuce URIs, the proxies' addresses. */
final class Connections {

    private final RunSettings run;

    Connections(RunSettings run) {
        this.run = run;
    }

    /**
     * A client of the run; {@code unsafeControl} re-introduces a defect of dlock-core in this one client (the property
     * is read when the client is built, so it is set just for the build).
     */
    LockClient client(String uri, Duration lease, String unsafeControl) {
        LockClient.Builder builder = LockClient.builder()
                .redisUri(uri)
                .transport(transport())
                .leaseTime(lease != null ? lease : run.ttl())
                .keyPrefix(run.keyPrefix())
                .clientName(run.clientName())
                .commandTimeout(run.commandTimeout());
        if (unsafeControl == null) {
            return builder.build();
        }
        synchronized (System.class) {
            System.setProperty(UNSAFE_CONTROL, unsafeControl);
            try {
                return builder.build();
            } finally {
                System.clearProperty(UNSAFE_CONTROL);
            }
        }
    }

    static final String UNSAFE_CONTROL = "dlock.unsafe.control";

    /**
     * The transport of every dlock client of a run, named rather than discovered, so a run's figures do not depend on
     * what else is on the class path (the CLI jar also carries dlock-resp, which ranks first for redis://). Lettuce:
     * the transport the verifier's tiers are recorded with; dlock-resp under these faults is open work (it failed the
     * server-errors scenario's liveness check once, docs/verification.md).
     */
    static TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    static RedisURI withTimeout(String uri, Duration timeout) {
        RedisURI parsed = RedisURI.create(uri);
        parsed.setTimeout(timeout);
        return parsed;
    }

    static String host(String uri) {
        return RedisURI.create(uri).getHost();
    }

    static int port(String uri) {
        return RedisURI.create(uri).getPort();
    }

    /** The same URI (credentials, database) with the proxy's loopback address. */
    static String viaProxy(String uri, int proxyPort) {
        URI parsed = URI.create(uri);
        if (!"redis".equals(parsed.getScheme())) {
            throw new IllegalArgumentException("the proxy supports redis:// URIs only, not " + parsed.getScheme());
        }
        try {
            return new URI(
                            parsed.getScheme(),
                            parsed.getUserInfo(),
                            "127.0.0.1",
                            proxyPort,
                            parsed.getPath(),
                            parsed.getQuery(),
                            null)
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("cannot rewrite " + uri, e);
        }
    }
}
