package dev.dlock.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * What a transport needs to connect, already validated by the client builder. Immutable and
 * thread-safe.
 *
 * @param uri the parsed Redis URI: topology, hosts, credentials, database, master name
 * @param commandTimeout the longest one command, or a connect, may take
 * @param clientName the name for {@code CLIENT SETNAME}
 */
public record TransportConfig(RedisUri uri, Duration commandTimeout, String clientName) {

    /**
     * Validates the components.
     *
     * @param uri see the record component
     * @param commandTimeout see the record component
     * @param clientName see the record component
     * @throws NullPointerException if a component is null
     */
    public TransportConfig {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        Objects.requireNonNull(clientName, "clientName");
    }

    /**
     * A config for a URI given as text.
     *
     * @param redisUri the URI
     * @param commandTimeout see the record component
     * @param clientName see the record component
     * @return the config
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if the URI does not parse ({@link RedisUri#parse})
     */
    public static TransportConfig of(String redisUri, Duration commandTimeout, String clientName) {
        return new TransportConfig(RedisUri.parse(redisUri), commandTimeout, clientName);
    }

    /**
     * The Redis URI as the user gave it (it may hold a password).
     *
     * @return the URI
     */
    public String redisUri() {
        return uri.raw();
    }

    /**
     * The URI with any password replaced by {@code ***}, for messages.
     *
     * @return the masked URI
     */
    public String maskedUri() {
        return uri.masked();
    }

    @Override
    public String toString() {
        return "TransportConfig[" + uri.masked() + ", timeout " + commandTimeout + ", name " + clientName + "]";
    }
}
