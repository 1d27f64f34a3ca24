package dev.dlock.bench;

import java.time.Duration;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson's RLock with its defaults (watchdog on, since {@code lock()} is called without a lease time). */
final class RedissonClientPeer implements Peer.Client {
    private final RedissonClient redisson;

    private RedissonClientPeer(RedissonClient redisson) {
        this.redisson = redisson;
    }

    static RedissonClientPeer connect(String host, int port, Duration lease) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + host + ":" + port);
        // The watchdog's lease, the one setting every peer shares; it renews every third of it.
        config.setLockWatchdogTimeout(lease.toMillis());
        return new RedissonClientPeer(Redisson.create(config));
    }

    @Override
    public Lock lock(String name) {
        return redisson.getLock(name);
    }

    @Override
    public void close() {
        redisson.shutdown();
    }
}
