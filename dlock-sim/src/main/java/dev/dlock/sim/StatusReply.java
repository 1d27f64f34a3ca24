package dev.dlock.sim;

import java.util.Objects;

/**
 * A status reply of {@link SimRedis} (RESP's {@code +OK}, {@code +hash}), kept apart from a bulk string as Redis keeps
 * it: a script sees it as {@code {ok = text}}. Immutable.
 *
 * @param text the status text, such as {@code OK}
 */
public record StatusReply(String text) {
    /** The reply {@code OK}. */
    public static final StatusReply OK = new StatusReply("OK");

    /**
     * Validates the text.
     *
     * @param text see the record component
     * @throws NullPointerException if {@code text} is null
     */
    public StatusReply {
        Objects.requireNonNull(text, "text");
    }
}
