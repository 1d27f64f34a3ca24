package dev.dlock.resp;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where and how to connect, parsed from {@code redis://[[user]:password@]host[:port][/db]} or the
 * same with {@code rediss://} (TLS). Immutable.
 */
record RedisEndpoint(String host, int port, boolean tls, String user, String password, int database) {
    private static final int DEFAULT_PORT = 6379;

    /**
     * Parses the URI the client builder already checked for syntax and scheme.
     *
     * @throws IllegalArgumentException for a Sentinel URI, or a path that is not a database number
     */
    static RedisEndpoint parse(String redisUri, String maskedUri) {
        URI uri;
        try {
            uri = new URI(redisUri);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("redisUri is not a URI: " + maskedUri, e);
        }
        String scheme = uri.getScheme();
        boolean tls = "rediss".equals(scheme);
        if (!tls && !"redis".equals(scheme)) {
            throw new IllegalArgumentException("dlock-resp connects to one standalone Redis (redis:// or rediss://),"
                    + " not " + maskedUri + "; use dlock-lettuce for Sentinel");
        }
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("redisUri has no host: " + maskedUri);
        }
        String user = null;
        String password = null;
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                password = decode(userInfo);
            } else {
                user = colon == 0 ? null : decode(userInfo.substring(0, colon));
                password = decode(userInfo.substring(colon + 1));
            }
            if (password != null && password.isEmpty()) {
                password = null;
            }
        }
        return new RedisEndpoint(
                uri.getHost(),
                uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(),
                tls,
                user,
                password,
                database(uri.getPath(), maskedUri));
    }

    private static int database(String path, String maskedUri) {
        if (path == null || path.isEmpty() || path.equals("/")) {
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
        throw new IllegalArgumentException("redisUri path must be a database number such as /2: " + maskedUri);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "RedisEndpoint[" + host + ":" + port + (tls ? ", tls" : "") + ", db " + database + "]";
    }
}
