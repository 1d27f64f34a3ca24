package dev.dlock.sim;

import java.util.ArrayDeque;

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
