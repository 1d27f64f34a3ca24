package dev.dlock.spi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * A Lua script with its SHA-1, run by {@link Transport#eval}. Immutable and thread-safe.
 *
 * @param name a short name for messages, such as {@code acquire}
 * @param source the Lua source
 * @param sha1 the lowercase hex SHA-1 of {@code source}, as {@code EVALSHA} expects it
 * @param reply the shape of the script's reply
 */
public record Script(String name, String source, String sha1, Reply reply) {

    /** The shape of a script's reply, so a transport can pick the matching decoder. */
    public enum Reply {
        /** An integer, delivered as a {@link Long}. */
        INTEGER,
        /** An array of integers, strings and nested arrays, delivered as a {@link java.util.List}. */
        ARRAY
    }

    /**
     * Validates the components.
     *
     * @param name see the record component
     * @param source see the record component
     * @param sha1 see the record component
     * @param reply see the record component
     * @throws NullPointerException if a component is null
     */
    public Script {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(sha1, "sha1");
        Objects.requireNonNull(reply, "reply");
    }

    /**
     * Creates a script, computing its SHA-1.
     *
     * @param name a short name for messages
     * @param source the Lua source
     * @param reply the shape of the reply
     * @return the script
     * @throws NullPointerException if an argument is null
     */
    public static Script of(String name, String source, Reply reply) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return new Script(name, source, hex.toString(), reply);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }
}
