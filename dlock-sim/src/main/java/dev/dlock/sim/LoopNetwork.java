package dev.dlock.sim;

import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One client's network as events of the world's {@link EventLoop}: each request and each reply or message is
 * delivered after a delay drawn from a seeded random source, and each direction of each link keeps its order, as a TCP
 * connection does (an action never overtakes one sent before it on the same link and direction). The command link and
 * the pub/sub link have delays of their own, so a grant's message can arrive before or long after the reply that
 * queued its waiter.
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

    @Override
    public void toServer(Link link, Runnable execute) {
        send(lastToServer, link, execute);
    }

    @Override
    public void toClient(Link link, Runnable deliver) {
        if (link == Link.COMMANDS && replyLoss > 0 && random.nextDouble() < replyLoss) {
            lostReplies++;
            return;
        }
        send(lastToClient, link, deliver);
    }

    @Override
    public void message(Runnable deliver) {
        if (messageLoss > 0 && random.nextDouble() < messageLoss) {
            lostMessages++;
            return;
        }
        send(lastToClient, Link.PUBSUB, deliver);
    }

    private void send(Map<Link, Long> last, Link link, Runnable action) {
        long arrival = Math.max(loop.now(), stalledUntil.getOrDefault(link, 0L))
                + delays.get(link).draw(random);
        arrival = Math.max(arrival, last.getOrDefault(link, 0L));
        last.put(link, arrival);
        loop.after(arrival - loop.now(), action);
    }
}
