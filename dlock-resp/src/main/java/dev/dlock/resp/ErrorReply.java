package dev.dlock.resp;

/** An error reply as Redis sent it, without the leading {@code -}; kept apart from simple strings. */
record ErrorReply(String message) {}
