package dev.dlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's RLock with its defaults (watchdog on, since {@code lock()} is called without a lease time), in the mode
 * of the target's topology: single server, Sentinel (its lock writes wait for the replicas: {@code
 * checkLockSyncedSlaves}, set explicitly although it is Redisson's default, with {@code slavesSyncTimeout} equal to
 * dlock's {@code replicaAckTimeout}, 1 s) or Cluster.
 */
final class RedissonClientPeer implements Peer.Client {
    /** dlock's default {@code replicaAckTimeout}, so that both wait as long for a replica. */
    static final long SYNC_TIMEOUT_MILLIS = 1000;

    private final RedissonClient redisson;
    private final boolean sortNames;

    private RedissonClientPeer(RedissonClient redisson, boolean sortNames) {
        this.redisson = redisson;
        this.sortNames = sortNames;
    }

    static RedissonClientPeer connect(Target target, Duration lease) {
        return new RedissonClientPeer(Redisson.create(config(target, lease)), false);
    }

    /**
     * This client, whose multi-locks take their names sorted: {@code RedissonMultiLock} locks them in the order given,
     * so two holders that give overlapping names in opposite orders each wait for the other until a try times out.
     */
    RedissonClientPeer sortingNames() {
        return new RedissonClientPeer(redisson, true);
    }

    /** The configuration of one client of {@code target}, whose lock watchdog has the shared lease. */
    static Config config(Target target, Duration lease) {
        Config config = new Config();
        switch (target.topology()) {
            case STANDALONE ->
                config.useSingleServer().setAddress(target.redisUris().get(0));
            case SENTINEL -> {
                var sentinel = config.useSentinelServers().setMasterName(target.masterName());
                target.redisUris().forEach(sentinel::addSentinelAddress);
                config.setCheckLockSyncedSlaves(true).setSlavesSyncTimeout(SYNC_TIMEOUT_MILLIS);
            }
            case CLUSTER -> {
                var cluster = config.useClusterServers();
                target.redisUris().forEach(cluster::addNodeAddress);
            }
            case REDLOCK_3, REDLOCK_5 ->
                throw new IllegalStateException("Redisson's lock over independent masters is RedissonRedLock");
        }
        // The watchdog's lease, the one setting every peer shares; it renews every third of it.
        config.setLockWatchdogTimeout(lease.toMillis());
        return config;
    }

    @Override
    public Lock lock(String name) {
        return redisson.getLock(name);
    }

    @Override
    public ReadWriteLock readWriteLock(String name) {
        return redisson.getReadWriteLock(name);
    }

    @Override
    public Lock multiLock(List<String> names) {
        return redisson.getMultiLock((sortNames ? names.stream().sorted() : names.stream())
                .map(redisson::getLock)
                .toArray(RLock[]::new));
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
