package dev.dlock.resp;

import dev.dlock.spi.RedisUri;

/**
 * One server to connect to and how: address, TLS, credentials and database, taken from the parsed
 * {@link RedisUri} (the one URI parser is core's). Immutable.
 */
record RedisEndpoint(String host, int port, boolean tls, String user, String password, int database) {

    /**
     * The one server of a {@code redis://} or {@code rediss://} URI.
     *
     * @throws IllegalArgumentException if the URI is not a standalone one
     */
    static RedisEndpoint of(RedisUri uri) {
        if (uri.topology() != RedisUri.Topology.STANDALONE) {
            throw new IllegalArgumentException("not a standalone Redis URI: " + uri.masked());
        }
        RedisUri.HostPort server = uri.hosts().get(0);
        return at(uri, server.host(), server.port());
    }

    /** A server named at run time (the master a sentinel names), with the URI's credentials and database. */
    static RedisEndpoint at(RedisUri uri, String host, int port) {
        return new RedisEndpoint(host, port, uri.tls(), uri.user(), uri.password(), uri.database());
    }

    /** {@code host:port}, IPv6 in brackets, for messages. */
    String address() {
        return new RedisUri.HostPort(host, port).toString();
    }

    @Override
    public String toString() {
        return "RedisEndpoint[" + address() + (tls ? ", tls" : "") + ", db " + database + "]";
    }
}
