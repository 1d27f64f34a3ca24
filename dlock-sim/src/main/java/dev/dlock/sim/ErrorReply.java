package dev.dlock.sim;

/** An error reply inside the simulation, as Redis words it without the leading {@code -}. */
record ErrorReply(String message) {
    static final ErrorReply WRONGTYPE =
            new ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value");
    static final ErrorReply NOT_INTEGER = new ErrorReply("ERR value is not an integer or out of range");
    static final ErrorReply SYNTAX = new ErrorReply("ERR syntax error");
    static final ErrorReply NOT_FLOAT = new ErrorReply("ERR value is not a valid float");

    /** Thrown by a command's code to answer with this error; no stack trace: it is a reply, not a failure. */
    static final class Raised extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient ErrorReply reply;

        Raised(ErrorReply reply) {
            super(reply.message(), null, false, false);
            this.reply = reply;
        }
    }

    Raised raise() {
        return new Raised(this);
    }
}
