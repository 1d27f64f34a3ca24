package dev.dlock.sim;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * One pub/sub connection to a {@link SimRedis}: its classic ({@code SUBSCRIBE}) and sharded ({@code SSUBSCRIBE})
 * subscriptions, and the listener its messages go to. A {@link SimRedis#restart restart} drops it: its subscriptions
 * are gone and it is closed. Single-threaded, as its server.
 */
public final class PubSubConnection implements AutoCloseable {
    private final SimRedis server;
    private final BiConsumer<String, String> listener;
    private final Set<String> channels = new LinkedHashSet<>();
    private final Set<String> shardChannels = new LinkedHashSet<>();
    private boolean open = true;

    PubSubConnection(SimRedis server, BiConsumer<String, String> listener) {
        this.server = server;
        this.listener = listener;
    }

    /**
     * Subscribes to a channel ({@code SUBSCRIBE}, or {@code SSUBSCRIBE} when {@code sharded}).
     *
     * @param channel the channel
     * @param sharded whether the subscription is sharded (messages of {@code SPUBLISH})
     * @return the number of subscriptions of this connection afterwards, as Redis confirms it
     * @throws IllegalStateException if the connection is closed
     */
    public long subscribe(String channel, boolean sharded) {
        ensureOpen();
        (sharded ? shardChannels : channels).add(channel);
        server.subscribe(this, channel, sharded);
        return (sharded ? shardChannels : channels).size();
    }

    /**
     * Unsubscribes from a channel ({@code UNSUBSCRIBE} or {@code SUNSUBSCRIBE}).
     *
     * @param channel the channel
     * @param sharded whether it was a sharded subscription
     * @return the number of subscriptions of this kind left
     * @throws IllegalStateException if the connection is closed
     */
    public long unsubscribe(String channel, boolean sharded) {
        ensureOpen();
        (sharded ? shardChannels : channels).remove(channel);
        server.unsubscribe(this, channel, sharded);
        return (sharded ? shardChannels : channels).size();
    }

    /**
     * Whether the connection is open (not closed, not dropped by a restart).
     *
     * @return true while open
     */
    public boolean isOpen() {
        return open;
    }

    /** Closes the connection, dropping its subscriptions; idempotent. */
    @Override
    public void close() {
        if (!open) {
            return;
        }
        for (String c : Set.copyOf(channels)) {
            server.unsubscribe(this, c, false);
        }
        for (String c : Set.copyOf(shardChannels)) {
            server.unsubscribe(this, c, true);
        }
        dropped();
    }

    void dropped() {
        open = false;
        channels.clear();
        shardChannels.clear();
    }

    void deliver(String channel, String message) {
        if (open) {
            listener.accept(channel, message);
        }
    }

    private void ensureOpen() {
        if (!open) {
            throw new IllegalStateException("the pub/sub connection is closed");
        }
    }
}
