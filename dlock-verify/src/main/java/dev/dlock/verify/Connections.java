package dev.dlock.verify;

import dev.dlock.LockClient;
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
        return client(uri, lease, unsafeControl, 0);
    }

    /**
     * As {@link #client(String, Duration, String)}; with {@code replicaAcks > 0} every granting write waits for that
     * many replicas, at most {@link #replicaAckTimeout()}.
     */
    LockClient client(String uri, Duration lease, String unsafeControl, int replicaAcks) {
        return client(uri, lease, unsafeControl, replicaAcks, run.clientName());
    }

    /** As {@link #client(String, Duration, String, int)}, with a {@code CLIENT SETNAME} other than the run's. */
    LockClient client(String uri, Duration lease, String unsafeControl, int replicaAcks, String clientName) {
        LockClient.Builder builder = LockClient.builder()
                .redisUri(uri)
                .transport(run.transport().factory())
                .leaseTime(lease != null ? lease : run.ttl())
                .keyPrefix(run.keyPrefix())
                .clientName(clientName)
                .commandTimeout(run.commandTimeout());
        if (replicaAcks > 0) {
            builder.replicaAcks(replicaAcks).replicaAckTimeout(replicaAckTimeout());
        }
        return build(builder, unsafeControl);
    }

    /**
     * A Redlock client of the run on {@code nodes} (one URI per independent master), with a command timeout of a
     * quarter of its lease: Redlock waits for every node up to it, and a hold needs half its lease left.
     */
    LockClient redlock(java.util.List<String> nodes, Duration lease, String unsafeControl) {
        Duration leaseTime = lease != null ? lease : run.ttl();
        LockClient.Builder builder = LockClient.builder()
                .redlock(nodes.toArray(String[]::new))
                .transport(run.transport().factory())
                .leaseTime(leaseTime)
                .keyPrefix(run.keyPrefix())
                .clientName(run.clientName())
                .commandTimeout(leaseTime.dividedBy(4));
        return build(builder, unsafeControl);
    }

    /**
     * Builds under one lock whether or not a control is asked for: a control is a system property while its client is
     * built, so a client of an honest scenario in another lane ({@link Verify#run(Options, java.util.List, int)}) built
     * at the same moment would otherwise get it too.
     */
    private static LockClient build(LockClient.Builder builder, String unsafeControl) {
        synchronized (System.class) {
            if (unsafeControl == null) {
                return builder.build();
            }
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
     * How long a write of a {@code replicaAcks} client waits for its replicas: half the TTL. A WAIT on a healthy replica
     * answers in about a millisecond, but with a quarter TTL (250 ms) the first acquires of a scenario, on a 2-core
     * host busy starting its clients, were refused now and then with no fault near.
     */
    Duration replicaAckTimeout() {
        return run.ttl().dividedBy(2);
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
