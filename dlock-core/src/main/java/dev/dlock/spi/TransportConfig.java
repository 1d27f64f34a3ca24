package dev.dlock.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * What a transport needs to connect, already validated by the client builder. Immutable and
 * thread-safe.
 *
 * @param redisUri the Redis URI as the user gave it (it may hold a password)
 * @param maskedUri the same URI with any password replaced by {@code ***}, for messages
 * @param commandTimeout the longest one command, or a connect, may take
 * @param clientName the name for {@code CLIENT SETNAME}
 */
public record TransportConfig(String redisUri, String maskedUri, Duration commandTimeout, String clientName) {

    /**
     * Validates the components.
     *
     * @param redisUri see the record component
     * @param maskedUri see the record component
     * @param commandTimeout see the record component
     * @param clientName see the record component
     * @throws NullPointerException if a component is null
     */
    public TransportConfig {
        Objects.requireNonNull(redisUri, "redisUri");
        Objects.requireNonNull(maskedUri, "maskedUri");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        Objects.requireNonNull(clientName, "clientName");
    }

    @Override
    public String toString() {
        return "TransportConfig[" + maskedUri + ", timeout " + commandTimeout + ", name " + clientName + "]";
    }
}
