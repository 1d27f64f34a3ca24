package dev.dlock.sim;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * One client's network as events of the world's {@link EventLoop}: each request and each reply or message is
 * delivered after a delay drawn from a seeded random source, and each direction of each link keeps its order, as a TCP
 * connection does (an action never overtakes one sent before it on the same link and direction). The command link and
 * the pub/sub link have delays of their own, so a grant's message can arrive before or long after the reply that
 * queued its waiter.
 *
 * <p>A link's connection can drop ({@link #drop}): whatever is on its way back on it is lost, of what is on its way
 * to the server only what arrives within a drawn instant still runs (TCP delivers a prefix), and the server is out of
 * reach for a while, so that the transport's connects ({@link #connect}) are refused until then. The transport learns
 * of the drop through {@link #onDrop}, at once (a reset): it is the transport's job to fail what it had sent, and to
 * reconnect.
 *
 * <p>Not thread-safe: used from the simulation's one thread.
 */
public final class LoopNetwork implements SimNetwork {
    /**
     * The one-way delays of one link.
     *
     * @param minNanos the shortest ordinary delay
     * @param maxNanos the longest ordinary delay
     * @param spikeChance the chance that one action is held up longer
     * @param spikeNanos the longest delay of such a spike (past a lease, to starve renewals or grants)
     */
    public record Delays(long minNanos, long maxNanos, double spikeChance, long spikeNanos) {
        /**
         * Checks the delays.
         *
         * @param minNanos the shortest ordinary delay
         * @param maxNanos the longest ordinary delay
         * @param spikeChance the chance that one action is held up longer
         * @param spikeNanos the longest delay of such a spike
         * @throws IllegalArgumentException unless 0 ≤ min ≤ max ≤ spike and the chance is in [0, 1]
         */
        public Delays {
            if (minNanos < 0 || maxNanos < minNanos || spikeNanos < maxNanos || spikeChance < 0 || spikeChance > 1) {
                throw new IllegalArgumentException("delays need 0 <= min <= max <= spike and a chance in [0, 1], were "
                        + minNanos + ", " + maxNanos + ", " + spikeNanos + ", " + spikeChance);
            }
        }

        /**
         * Delays from {@code minNanos} to {@code maxNanos}, without spikes.
         *
         * @param minNanos the shortest delay
         * @param maxNanos the longest delay
         * @return the delays
         */
        public static Delays between(long minNanos, long maxNanos) {
            return new Delays(minNanos, maxNanos, 0, maxNanos);
        }

        long draw(SplittableRandom random) {
            if (spikeChance > 0 && random.nextDouble() < spikeChance) {
                return random.nextLong(maxNanos, spikeNanos + 1);
            }
            return minNanos == maxNanos ? minNanos : random.nextLong(minNanos, maxNanos + 1);
        }
    }

    private final EventLoop loop;
    private final SplittableRandom random;
    private final Map<Link, Delays> delays = new EnumMap<>(Link.class);
    private final Map<Link, Long> lastToServer = new EnumMap<>(Link.class);
    private final Map<Link, Long> lastToClient = new EnumMap<>(Link.class);
    private final Map<Link, Long> stalledUntil = new EnumMap<>(Link.class);
    private final Wire[] wires = {new Wire(), new Wire()}; // each link's current connection
    private final Wire[] serving = new Wire[2]; // the connection of the request running at the server, or null
    private final long[] unreachableUntil = new long[2];
    private final long[] crashedUntil = new long[2]; // the server is down: nothing reaches it on the link
    private final long[] crashes = new long[2];
    private Consumer<Link> dropListener = link -> {};
    private long drops;
    private double replyLoss;
    private double messageLoss;
    private long lostReplies;
    private long lostMessages;

    /**
     * @param loop the world
     * @param random this network's source of delays, split from the run's seed
     * @param commands the delays of the command link
     * @param pubSub the delays of the pub/sub link
     */
    public LoopNetwork(EventLoop loop, SplittableRandom random, Delays commands, Delays pubSub) {
        this.loop = loop;
        this.random = random;
        delays.put(Link.COMMANDS, commands);
        delays.put(Link.PUBSUB, pubSub);
    }

    /**
     * Holds up everything on one link, both ways, until {@code nanos} from now, as a client paused or cut off would:
     * what is sent meanwhile, and what was on its way, arrives after that (in order).
     *
     * @param link the link
     * @param nanos how long, in the world's time
     */
    public void stall(Link link, long nanos) {
        stalledUntil.merge(link, loop.now() + nanos, Math::max);
    }

    /**
     * Loses a share of what comes back from now on: replies on the command link (the command ran; its reply never
     * comes, as when the connection drops or the reply is later than the client waits, so its outcome is unknown to
     * the client) and pub/sub messages (published while a pub/sub connection was down).
     *
     * @param replyChance the chance that one reply is lost
     * @param messageChance the chance that one pub/sub message is lost
     * @throws IllegalArgumentException unless both are in [0, 1]
     */
    public void lose(double replyChance, double messageChance) {
        if (!(replyChance >= 0 && replyChance <= 1 && messageChance >= 0 && messageChance <= 1)) {
            throw new IllegalArgumentException(
                    "loss chances must be in [0, 1], were " + replyChance + " and " + messageChance);
        }
        this.replyLoss = replyChance;
        this.messageLoss = messageChance;
    }

    /**
     * How many replies this network lost.
     *
     * @return the count
     */
    public long lostReplies() {
        return lostReplies;
    }

    /**
     * How many pub/sub messages this network lost.
     *
     * @return the count
     */
    public long lostMessages() {
        return lostMessages;
    }

    /** One connection of a link: what was sent on it arrives only while it is open (requests: until its cut-off). */
    private static final class Wire {
        boolean open = true;
        long cutoff = Long.MAX_VALUE; // requests arriving later than this are lost with the connection
    }

    /**
     * Drops the link's connection now, as a reset or a cable pulled would: every reply and message in flight on it is
     * lost; of the requests in flight, those that arrive within an instant drawn up to the link's longest ordinary
     * delay still run at the server (their outcome unknown to the client), the later ones never do. The server is
     * then out of reach on this link for {@code downNanos}: connects until then are refused. The drop listener is
     * told at once.
     *
     * @param link the link
     * @param downNanos how long the server cannot be reached on it
     */
    public void drop(Link link, long downNanos) {
        long cutoff = loop.now() + random.nextLong(0, delays.get(link).maxNanos() + 1);
        cut(link, cutoff);
        unreachableUntil[link.ordinal()] = Math.max(unreachableUntil[link.ordinal()], loop.now() + downNanos);
        drops++;
        dropListener.accept(link);
    }

    /**
     * How many connections this network dropped.
     *
     * @return the count
     */
    public long drops() {
        return drops;
    }

    /**
     * The server crashed: the link's connection is gone with everything in flight on it, both ways (nothing sent runs
     * any more), and the server is out of reach on it for {@code downNanos}. Not counted as a drop; the drop listener
     * is told at once.
     *
     * @param link the link
     * @param downNanos how long the server is down
     */
    public void crash(Link link, long downNanos) {
        int i = link.ordinal();
        cut(link, loop.now() - 1);
        unreachableUntil[i] = Math.max(unreachableUntil[i], loop.now() + downNanos);
        crashedUntil[i] = Math.max(crashedUntil[i], loop.now() + downNanos);
        crashes[i]++; // a connect on its way back now is refused too
        dropListener.accept(link);
    }

    @Override
    public void onDrop(Consumer<Link> listener) {
        this.dropListener = listener;
    }

    @Override
    public void close(Link link) {
        cut(link, loop.now() - 1);
    }

    private void cut(Link link, long cutoff) {
        Wire old = wires[link.ordinal()];
        old.open = false;
        old.cutoff = cutoff;
        wires[link.ordinal()] = new Wire();
    }

    /** A connect's round trip: refused if it reaches the server while the link is still out of reach. */
    @Override
    public void connect(Link link, Consumer<Boolean> done) {
        long there = Math.max(loop.now(), stalledUntil.getOrDefault(link, 0L))
                + delays.get(link).draw(random);
        long crashed = crashes[link.ordinal()];
        loop.after(there - loop.now(), () -> {
            boolean reached = loop.now() >= unreachableUntil[link.ordinal()];
            loop.after(delays.get(link).draw(random), () -> done.accept(reached && crashes[link.ordinal()] == crashed));
        });
    }

    @Override
    public void toServer(Link link, Runnable execute) {
        Wire wire = wires[link.ordinal()];
        int i = link.ordinal();
        send(lastToServer, link, () -> {
            if (loop.now() > wire.cutoff || loop.now() < crashedUntil[i]) {
                return; // its connection dropped before it arrived, or the server is down
            }
            Wire before = serving[i];
            serving[i] = wire; // its reply goes back on the connection it came on
            try {
                execute.run();
            } finally {
                serving[i] = before;
            }
        });
    }

    @Override
    public void toClient(Link link, Runnable deliver) {
        toClientOn(link, on(link), deliver);
    }

    private void toClientOn(Link link, Wire wire, Runnable deliver) {
        if (link == Link.COMMANDS && replyLoss > 0 && random.nextDouble() < replyLoss) {
            lostReplies++;
            return;
        }
        send(lastToClient, link, () -> {
            if (wire.open) {
                deliver.run();
            }
        });
    }

    @Override
    public ReplyPath replyPath(Link link) {
        return new Path(this, link, on(link));
    }

    /** A connection's way back: equal for one connection (its {@link Wire}). */
    private record Path(LoopNetwork network, Link link, Wire wire) implements ReplyPath {
        @Override
        public boolean open() {
            return wire.open;
        }

        @Override
        public void send(Runnable deliver) {
            network.toClientOn(link, wire, deliver);
        }
    }

    @Override
    public void message(Runnable deliver) {
        if (messageLoss > 0 && random.nextDouble() < messageLoss) {
            lostMessages++;
            return;
        }
        Wire wire = on(Link.PUBSUB);
        send(lastToClient, Link.PUBSUB, () -> {
            if (wire.open) {
                deliver.run();
            }
        });
    }

    /** The connection an answer goes back on: the request's being served, else the link's current one. */
    private Wire on(Link link) {
        Wire s = serving[link.ordinal()];
        return s != null ? s : wires[link.ordinal()];
    }

    private void send(Map<Link, Long> last, Link link, Runnable action) {
        long arrival = Math.max(loop.now(), stalledUntil.getOrDefault(link, 0L))
                + delays.get(link).draw(random);
        arrival = Math.max(arrival, last.getOrDefault(link, 0L));
        last.put(link, arrival);
        loop.after(arrival - loop.now(), action);
    }
}
