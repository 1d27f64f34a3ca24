package dev.dlock.spi;

/**
 * Redis answered a command with an error reply. Transports complete futures with it; dlock turns it
 * into a {@link dev.dlock.LockServerException} naming the key. Immutable and thread-safe.
 */
public final class RedisReplyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception carrying Redis' error reply.
     *
     * @param reply the error reply as Redis sent it, such as {@code WRONGTYPE Operation against...}
     * @param cause the client library's exception, or {@code null}
     */
    public RedisReplyException(String reply, Throwable cause) {
        super(reply, cause);
    }
}
