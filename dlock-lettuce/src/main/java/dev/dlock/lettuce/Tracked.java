package dev.dlock.lettuce;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandWrapper;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.channel.Channel;

/**
 * A command that knows which channel it was written to, and how often: {@link WriteTracker} records
 * every write, a re-send after a reconnect included. Lettuce's auto-reconnect is at-least-once (a
 * command in flight when the connection dropped goes out again on the next one), so a reply can only
 * be trusted to belong to a channel when its command was written exactly once. It also carries its
 * own timeout ({@link #timeoutNanos()}), read by the client's {@code TimeoutSource}.
 *
 * @param <T> the reply type
 */
final class Tracked<T> extends io.lettuce.core.protocol.Command<String, String, T> {
    private final long timeoutNanos;
    private volatile Channel channel; // the last channel it was written to
    private volatile int writes; // written only on channel event loops, one channel at a time

    Tracked(
            ProtocolKeyword type,
            CommandOutput<String, String, T> output,
            CommandArgs<String, String> args,
            long timeoutNanos) {
        super(type, output, args);
        this.timeoutNanos = timeoutNanos;
    }

    /** The longest this command may wait for its reply. */
    long timeoutNanos() {
        return timeoutNanos;
    }

    /** Called by {@link WriteTracker} as the command passes to the socket of {@code to}. */
    synchronized void written(Channel to) {
        channel = to;
        writes++;
    }

    /** The channel it was last written to, or null if never. */
    Channel channel() {
        return channel;
    }

    /** How often it was written: more than once means Lettuce re-sent it after a reconnect. */
    int writes() {
        return writes;
    }

    /** Whether this command and {@code before} were each written exactly once, on the same channel. */
    boolean sameSingleWrite(Tracked<?> before) {
        Channel c = channel;
        return c != null && writes == 1 && before.writes() == 1 && before.channel() == c;
    }

    /** The tracked command inside Lettuce's wrappers, or null. */
    static Tracked<?> of(RedisCommand<?, ?, ?> command) {
        return CommandWrapper.unwrap(command, Tracked.class);
    }
}
