package dev.dlock.bench;

import dev.dlock.lettuce.LettuceTransportFactory;
import dev.dlock.resp.RespTransportFactory;
import java.time.Duration;
import java.util.concurrent.locks.Lock;

/**
 * A lock implementation under measurement. "dlock" runs on the transport dlock recommends for one standalone
 * Redis (dlock-resp); "dlock on Lettuce" is the same library on dlock-lettuce, measured in W1 and W2. Every peer is configured alike: the same Redis, the same lease
 * time (the watchdog's lease where the peer has one), and otherwise its defaults.
 */
enum Peer {
    DLOCK("dlock", "dlock"),
    DLOCK_LETTUCE("dlock on Lettuce", "dlock/Lettuce"),
    REDISSON("Redisson RLock", "Redisson"),
    SPRING_PUB_SUB("Spring RedisLockRegistry PUB_SUB", "Spring PUB_SUB"),
    SPRING_SPIN("Spring RedisLockRegistry SPIN", "Spring SPIN"),
    NAIVE("naive SET NX PX + 1 ms poll", "naive 1 ms poll"),
    FLOOR("raw Lettuce floor", "floor");

    final String label;
    final String shortLabel;

    Peer(String label, String shortLabel) {
        this.label = label;
        this.shortLabel = shortLabel;
    }

    /**
     * Connects one client of this peer.
     *
     * @param host the Redis host
     * @param port the Redis port
     * @param lease the lease time (watchdog lease, TTL or expireAfter)
     * @param renewal whether a peer that only renews on request should be given its renewal scheduler
     */
    Client connect(String host, int port, Duration lease, boolean renewal) {
        return switch (this) {
            case DLOCK -> DlockClient.connect(host, port, lease, new RespTransportFactory());
            case DLOCK_LETTUCE -> DlockClient.connect(host, port, lease, new LettuceTransportFactory());
            case REDISSON -> RedissonClientPeer.connect(host, port, lease);
            case SPRING_PUB_SUB -> SpringClient.connect(host, port, lease, true, renewal);
            case SPRING_SPIN -> SpringClient.connect(host, port, lease, false, renewal);
            case NAIVE -> LettuceLockClient.connect(host, port, lease, true);
            case FLOOR -> LettuceLockClient.connect(host, port, lease, false);
        };
    }

    /** One connected client of a peer: its own connections and threads, shared by the threads that use it. */
    interface Client extends AutoCloseable {
        /**
         * Returns a lock on {@code name}; called by the thread that will use it.
         *
         * @param name the lock name
         * @return the lock
         */
        Lock lock(String name);

        @Override
        void close();
    }
}
