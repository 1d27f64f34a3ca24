package dev.dlock.testkit;

/**
 * Thrown by {@link RedisServer#command(String...)} when Redis answers with a RESP error reply such as
 * {@code -NOAUTH Authentication required.}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class RedisErrorReply extends RuntimeException {

    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    RedisErrorReply(String message) {
        super(message);
    }

    /**
     * Returns the first word of the error message, for example {@code NOAUTH} or {@code WRONGTYPE}.
     *
     * @return the error prefix, or the whole message when it contains no space
     */
    public String prefix() {
        String message = getMessage();
        int space = message.indexOf(' ');
        return space < 0 ? message : message.substring(0, space);
    }
}
