package dev.dlock.bench;

import dev.dlock.lettuce.LettuceTransportFactory;
import dev.dlock.resp.RespTransportFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * A lock implementation under measurement. "dlock" runs on the transport dlock recommends for one standalone
 * Redis (dlock-resp); "dlock on Lettuce" is the same library on dlock-lettuce, measured in W1 and W2. Every peer is
 * configured alike: the same Redis, the same lease time (the watchdog's lease where the peer has one), and otherwise
 * its defaults. The last three run in the topology phases only ({@link Topology}): dlock with {@code replicaAcks(1)}
 * on both transports (Sentinel), and Redisson's {@code RedissonRedLock} (Redlock); on a topology, "dlock" and
 * "Redisson RLock" connect the way that topology needs. The semaphore peers run in W7 and W8 only: a permit of a
 * semaphore of three, as a {@code Lock} ({@link SemaphorePeer}). The read-write peers (W9–W12) and the multi-lock peers
 * (W13, W14) are the clients of "dlock" and "Redisson RLock", driven through {@link Client#readWriteLock} and {@link
 * Client#multiLock}; Redisson's multi-lock takes its names in the order given, so W13 and W14 also run it with the names
 * sorted by the caller, the order dlock's multi-lock sorts them into itself.
 */
enum Peer {
    DLOCK("dlock", "dlock"),
    DLOCK_LETTUCE("dlock on Lettuce", "dlock/Lettuce"),
    REDISSON("Redisson RLock", "Redisson"),
    SPRING_PUB_SUB("Spring RedisLockRegistry PUB_SUB", "Spring PUB_SUB"),
    SPRING_SPIN("Spring RedisLockRegistry SPIN", "Spring SPIN"),
    NAIVE("naive SET NX PX + 1 ms poll", "naive 1 ms poll"),
    FLOOR("raw Lettuce floor", "floor"),
    DLOCK_ACKS("dlock, replicaAcks(1)", "dlock acks"),
    DLOCK_LETTUCE_ACKS("dlock on Lettuce, replicaAcks(1)", "dlock/Lettuce acks"),
    REDISSON_REDLOCK("Redisson RedissonRedLock", "RedissonRedLock"),
    DLOCK_SEMAPHORE("dlock semaphore(3)", "dlock semaphore"),
    REDISSON_SEMAPHORE("Redisson RPermitExpirableSemaphore(3)", "Redisson semaphore"),
    DLOCK_RW("dlock readWriteLock", "dlock rw"),
    REDISSON_RW("Redisson RReadWriteLock", "Redisson rw"),
    DLOCK_MULTI("dlock multiLock", "dlock multi"),
    REDISSON_MULTI("Redisson RedissonMultiLock", "Redisson multi"),
    REDISSON_MULTI_SORTED("Redisson RedissonMultiLock, names sorted by the caller", "Redisson multi sorted");

    /** The peers of the main suite, on its standalone server. */
    static final List<Peer> STANDALONE =
            List.of(DLOCK, DLOCK_LETTUCE, REDISSON, SPRING_PUB_SUB, SPRING_SPIN, NAIVE, FLOOR);

    final String label;
    final String shortLabel;

    Peer(String label, String shortLabel) {
        this.label = label;
        this.shortLabel = shortLabel;
    }

    /**
     * Connects one client of this peer.
     *
     * @param target where to connect
     * @param lease the lease time (watchdog lease, TTL or expireAfter)
     * @param renewal whether a peer that only renews on request should be given its renewal scheduler
     * @throws IllegalStateException if this peer does not run on the target's topology
     */
    Client connect(Target target, Duration lease, boolean renewal) {
        return switch (this) {
            case DLOCK -> DlockClient.connect(target, lease, new RespTransportFactory(), 0);
            case DLOCK_LETTUCE -> DlockClient.connect(target, lease, new LettuceTransportFactory(), 0);
            case DLOCK_ACKS -> DlockClient.connect(target, lease, new RespTransportFactory(), 1);
            case DLOCK_LETTUCE_ACKS -> DlockClient.connect(target, lease, new LettuceTransportFactory(), 1);
            case REDISSON -> RedissonClientPeer.connect(target, lease);
            case REDISSON_REDLOCK -> RedissonRedLockPeer.connect(target, lease);
            case SPRING_PUB_SUB -> SpringClient.connect(target.host(), target.port(), lease, true, renewal);
            case SPRING_SPIN -> SpringClient.connect(target.host(), target.port(), lease, false, renewal);
            case NAIVE -> LettuceLockClient.connect(target.host(), target.port(), lease, true);
            case FLOOR -> LettuceLockClient.connect(target.host(), target.port(), lease, false);
            case DLOCK_RW, DLOCK_MULTI -> DlockClient.connect(target, lease, new RespTransportFactory(), 0);
            case REDISSON_RW, REDISSON_MULTI -> RedissonClientPeer.connect(target, lease);
            case REDISSON_MULTI_SORTED ->
                RedissonClientPeer.connect(target, lease).sortingNames();
            case DLOCK_SEMAPHORE -> SemaphorePeer.dlock(target, lease);
            case REDISSON_SEMAPHORE -> SemaphorePeer.redisson(target, lease);
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

        /**
         * Returns the read-write lock on {@code name}, for W9–W12; called by the thread that will use it.
         *
         * @param name the lock name
         * @return the read-write lock
         * @throws UnsupportedOperationException if this peer has no read-write lock
         */
        default ReadWriteLock readWriteLock(String name) {
            throw new UnsupportedOperationException(getClass().getName() + " has no read-write lock");
        }

        /**
         * Returns a lock that holds all of {@code names} or none, for W13 and W14; called by the thread that will use it.
         *
         * @param names the lock names, in the order the caller drew them
         * @return the multi-lock
         * @throws UnsupportedOperationException if this peer has no multi-lock
         */
        default Lock multiLock(List<String> names) {
            throw new UnsupportedOperationException(getClass().getName() + " has no multi-lock");
        }

        @Override
        void close();
    }
}
