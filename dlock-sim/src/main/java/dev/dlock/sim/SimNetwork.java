package dev.dlock.sim;

import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * The seam between a {@link SimTransport} and its {@link SimRedis}: every command on its way to the server, and every
 * reply and pub/sub message on its way back, passes through here as an action to run. An implementation decides when
 * each runs: at once ({@link #direct()}), or later, reordered across links, or never (a lost reply), under a seeded
 * scheduler that the simulation drives.
 *
 * <p>The two links of one client are told apart, so that its command connection and its pub/sub connection can be
 * delayed independently. Within one link, an implementation that models TCP keeps the actions in order.
 */
public interface SimNetwork {
    /** A client's connection to the server. */
    enum Link {
        /** The connection that carries scripts and their replies. */
        COMMANDS,
        /** The connection that carries subscriptions, their confirmations and the messages. */
        PUBSUB
    }

    /**
     * Carries a request to the server: runs {@code execute} (which runs the command on the server and hands its
     * reply to {@link #toClient}) when the request arrives.
     *
     * @param link the connection it travels on
     * @param execute runs the command at the server
     */
    void toServer(Link link, Runnable execute);

    /**
     * Carries a reply or a message to the client: runs {@code deliver} when it arrives.
     *
     * @param link the connection it travels on
     * @param deliver hands it to the client (completes a future, calls the message listener)
     */
    void toClient(Link link, Runnable deliver);

    /**
     * Carries a pub/sub message (not a subscription's confirmation) to the client; by default as {@link #toClient}
     * on the pub/sub link. A network may lose it, as a pub/sub connection that drops and is restored loses what was
     * published meanwhile.
     *
     * @param deliver hands it to the client's message listener
     */
    default void message(Runnable deliver) {
        toClient(Link.PUBSUB, deliver);
    }

    /**
     * Sets what is told when the network drops one of the client's connections (its replies and messages in flight
     * lost): the transport fails what it sent on it and reconnects with {@link #connect}. A network that never drops a
     * connection (the default) ignores it.
     *
     * @param listener receives the link whose connection dropped
     */
    default void onDrop(Consumer<Link> listener) {}

    /**
     * Closes the link's connection from the server's side, as a restart closes every client connection: nothing in
     * flight on it arrives any more, either way. Nothing to do for a network that keeps nothing in flight (the
     * default).
     *
     * @param link the link
     */
    default void close(Link link) {}

    /**
     * The way back to the client on the connection of the request the server is running now, kept for a reply the
     * server sends later (a {@code WAIT}'s, which blocks its connection until the replicas answer): it goes back on
     * that connection or not at all. By default the link's {@link #toClient}, a connection that never closes.
     *
     * @param link the link the request came on
     * @return the way back
     */
    default ReplyPath replyPath(Link link) {
        return new ReplyPath() {
            @Override
            public boolean open() {
                return true;
            }

            @Override
            public void send(Runnable deliver) {
                toClient(link, deliver);
            }
        };
    }

    /** One server-side connection's way back to its client ({@link #replyPath}); equal for one connection. */
    interface ReplyPath {
        /**
         * Whether the connection is still open: a server drops what waits on a closed one.
         *
         * @return whether it is open
         */
        boolean open();

        /**
         * Sends a reply on the connection, as {@link #toClient} does; lost if the connection has closed.
         *
         * @param deliver what the reply does at the client
         */
        void send(Runnable deliver);
    }

    /**
     * Opens a new connection on a link whose connection was dropped or closed; {@code done} learns whether the
     * server was reachable (a refused connect is told at once, as a reset is). By default the connect succeeds, told
     * as a reply is.
     *
     * @param link the link
     * @param done receives true once connected, false if refused
     */
    default void connect(Link link, Consumer<Boolean> done) {
        toClient(link, () -> done.accept(true));
    }

    /**
     * A network without delay: every action runs at once, in the order sent. An action sent while another runs (a
     * reply's callback that sends the next command) runs right after it, not inside it, so call chains do not nest.
     * Its actions run under its lock, one at a time: meant for a driver on one thread.
     *
     * @return a new direct network
     */
    static SimNetwork direct() {
        return new SimNetwork() {
            private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
            private boolean running;

            @Override
            public void toServer(Link link, Runnable execute) {
                run(execute);
            }

            @Override
            public void toClient(Link link, Runnable deliver) {
                run(deliver);
            }

            private synchronized void run(Runnable action) {
                queue.add(action);
                if (running) {
                    return;
                }
                running = true;
                try {
                    Runnable next;
                    while ((next = queue.poll()) != null) {
                        next.run();
                    }
                } finally {
                    running = false;
                }
            }
        };
    }
}
