package dev.dlock.spi;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A Redis URI parsed into what a transport connects to. The forms:
 *
 * <ul>
 *   <li>{@code redis://[[user]:password@]host[:port][/db]} and {@code rediss://...} (TLS): one
 *       standalone server (or a master with replicas), default port 6379;
 *   <li>{@code redis-sentinel://[[user]:password@]host[:port][,host2[:port2]...][/db]#masterName}:
 *       the sentinels to ask for the master named after {@code #}, default port 26379; the
 *       credentials are the master's (sentinels are asked without them);
 *   <li>{@code redis-cluster://[[user]:password@]host[:port][,host2[:port2]...]}: seed nodes of a
 *       Redis Cluster, default port 6379, database 0 only.
 * </ul>
 *
 * <p>User and password are percent-decoded. IPv6 hosts go in brackets ({@code [::1]:6379}).
 * Immutable and thread-safe; {@link #toString()} is the masked form.
 *
 * @param topology what the hosts are
 * @param tls whether to connect with TLS ({@code rediss://})
 * @param hosts the hosts, at least one; exactly one for {@link Topology#STANDALONE}
 * @param user the user, or null for the default user
 * @param password the password, or null for none
 * @param database the database number, 0 unless a path names another
 * @param masterName the Sentinel master name, or null for other topologies
 * @param raw the URI as given
 * @param masked the URI with any password replaced by {@code ***}, for messages and logs
 */
public record RedisUri(
        Topology topology,
        boolean tls,
        List<HostPort> hosts,
        String user,
        String password,
        int database,
        String masterName,
        String raw,
        String masked) {

    /** What the hosts of a URI are. */
    public enum Topology {
        /** One server: {@code redis://} or {@code rediss://}. */
        STANDALONE,
        /** Sentinels that name the master: {@code redis-sentinel://}. */
        SENTINEL,
        /** Seed nodes of a Redis Cluster: {@code redis-cluster://}. */
        CLUSTER
    }

    /**
     * One host of a URI.
     *
     * @param host the host name or address (an IPv6 address without brackets)
     * @param port the port
     */
    public record HostPort(String host, int port) {
        /**
         * Checks the parts.
         *
         * @param host see the record component
         * @param port see the record component
         * @throws NullPointerException if {@code host} is null
         * @throws IllegalArgumentException if the port is not 1 to 65535
         */
        public HostPort {
            Objects.requireNonNull(host, "host");
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be 1 to 65535, was " + port);
            }
        }

        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * Checks the parts' consistency.
     *
     * @param topology see the record component
     * @param tls see the record component
     * @param hosts see the record component
     * @param user see the record component
     * @param password see the record component
     * @param database see the record component
     * @param masterName see the record component
     * @param raw see the record component
     * @param masked see the record component
     * @throws NullPointerException if a required part is null
     * @throws IllegalArgumentException if the hosts or the master name do not fit the topology
     */
    public RedisUri {
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(masked, "masked");
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("redisUri has no host: " + masked);
        }
        if (topology == Topology.STANDALONE && hosts.size() > 1) {
            throw new IllegalArgumentException(
                    "redisUri names several hosts; use redis-sentinel:// or redis-cluster:// for that: " + masked);
        }
        if ((topology == Topology.SENTINEL) != (masterName != null)) {
            throw new IllegalArgumentException(
                    topology == Topology.SENTINEL
                            ? "redis-sentinel:// needs the master name after '#': " + masked
                            : "only redis-sentinel:// takes a master name after '#': " + masked);
        }
    }

    /**
     * Parses a URI.
     *
     * @param uri the URI
     * @return the parsed URI
     * @throws NullPointerException if {@code uri} is null
     * @throws IllegalArgumentException naming the (masked) URI and what is wrong with it: the
     *     scheme, a host or port, the database, the master name
     */
    public static RedisUri parse(String uri) {
        Objects.requireNonNull(uri, "redisUri");
        String masked = mask(uri);
        int schemeEnd = uri.indexOf("://");
        if (schemeEnd < 0) {
            throw new IllegalArgumentException(
                    "redisUri must start with redis://, rediss://, redis-sentinel:// or redis-cluster://, was "
                            + masked);
        }
        String scheme = uri.substring(0, schemeEnd);
        Topology topology;
        boolean tls = false;
        int defaultPort = 6379;
        switch (scheme) {
            case "redis" -> topology = Topology.STANDALONE;
            case "rediss" -> {
                topology = Topology.STANDALONE;
                tls = true;
            }
            case "redis-sentinel" -> {
                topology = Topology.SENTINEL;
                defaultPort = 26379;
            }
            case "redis-cluster" -> topology = Topology.CLUSTER;
            default ->
                throw new IllegalArgumentException(
                        "redisUri must start with redis://, rediss://, redis-sentinel:// or redis-cluster://, was "
                                + masked);
        }
        String rest = uri.substring(schemeEnd + 3);
        String fragment = null;
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            fragment = rest.substring(hash + 1);
            rest = rest.substring(0, hash);
        }
        if (rest.indexOf('?') >= 0) {
            throw new IllegalArgumentException("redisUri takes no query parameters: " + masked);
        }
        int at = rest.lastIndexOf('@');
        String userInfo = at >= 0 ? rest.substring(0, at) : null;
        String afterUser = at >= 0 ? rest.substring(at + 1) : rest;
        int slash = afterUser.indexOf('/');
        String authority = slash >= 0 ? afterUser.substring(0, slash) : afterUser;
        String path = slash >= 0 ? afterUser.substring(slash) : "";

        List<HostPort> hosts = new ArrayList<>();
        if (!authority.isEmpty()) {
            for (String part : authority.split(",", -1)) {
                hosts.add(hostPort(part, defaultPort, masked));
            }
        }
        String user = null;
        String password = null;
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = decode(userInfo, masked);
            } else {
                user = colon == 0 ? null : decode(userInfo.substring(0, colon), masked);
                password = decode(userInfo.substring(colon + 1), masked);
            }
            if (password != null && password.isEmpty()) {
                password = null;
            }
        }
        int database = database(path, masked);
        if (topology == Topology.CLUSTER && database != 0) {
            throw new IllegalArgumentException("a Redis Cluster has database 0 only: " + masked);
        }
        String masterName = null;
        if (topology == Topology.SENTINEL) {
            if (fragment == null || fragment.isBlank()) {
                throw new IllegalArgumentException("redis-sentinel:// needs the master name after '#': " + masked);
            }
            masterName = decode(fragment, masked);
        } else if (fragment != null) {
            throw new IllegalArgumentException("only redis-sentinel:// takes a master name after '#': " + masked);
        }
        return new RedisUri(topology, tls, hosts, user, password, database, masterName, uri, masked);
    }

    /** The URI with any password replaced by {@code ***}. */
    @Override
    public String toString() {
        return masked;
    }

    private static HostPort hostPort(String part, int defaultPort, String masked) {
        if (part.isEmpty()) {
            throw new IllegalArgumentException("redisUri has no host: " + masked);
        }
        String host;
        String port = null;
        if (part.startsWith("[")) {
            int close = part.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("redisUri has an unclosed '[' in host " + part + ": " + masked);
            }
            host = part.substring(1, close);
            String after = part.substring(close + 1);
            if (!after.isEmpty()) {
                if (!after.startsWith(":")) {
                    throw new IllegalArgumentException("redisUri has a bad host " + part + ": " + masked);
                }
                port = after.substring(1);
            }
        } else {
            int colon = part.indexOf(':');
            host = colon >= 0 ? part.substring(0, colon) : part;
            port = colon >= 0 ? part.substring(colon + 1) : null;
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> c <= ' ' || c == '/' || c == '@')) {
            throw new IllegalArgumentException("redisUri has no host: " + masked);
        }
        int number = defaultPort;
        if (port != null) {
            try {
                number = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                number = -1;
            }
            if (number < 1 || number > 65535) {
                throw new IllegalArgumentException("redisUri port must be 1 to 65535, was '" + port + "' in " + masked);
            }
        }
        return new HostPort(host, number);
    }

    private static int database(String path, String masked) {
        if (path.isEmpty() || path.equals("/")) {
            return 0;
        }
        try {
            int database = Integer.parseInt(path.substring(1));
            if (database >= 0) {
                return database;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("redisUri path must be a database number such as /2: " + masked);
    }

    private static String decode(String s, String masked) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("redisUri has a bad percent-encoding: " + masked, e);
        }
    }

    /** The URI with the password of its user info (before the last '@' of the authority) masked. */
    static String mask(String uri) {
        int schemeEnd = uri.indexOf("://");
        int start = schemeEnd < 0 ? 0 : schemeEnd + 3;
        int end = uri.length();
        for (int i = start; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '/' || c == '#' || c == '?') {
                end = i;
                break;
            }
        }
        int at = uri.lastIndexOf('@', end - 1);
        if (at < start) {
            return uri;
        }
        String userInfo = uri.substring(start, at);
        int colon = userInfo.indexOf(':');
        String maskedInfo = colon >= 0 ? userInfo.substring(0, colon) + ":***" : "***";
        return uri.substring(0, start) + maskedInfo + uri.substring(at);
    }
}
