package dev.dlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.RedissonRedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * Redisson's Redlock: a {@code RedissonRedLock} over one {@code RLock} per independent master, each from its own
 * single-server {@code RedissonClient} (deprecated in Redisson, still present in 3.52); {@code lock()} without a lease
 * time, so each RLock's watchdog renews it.
 */
final class RedissonRedLockPeer implements Peer.Client {
    private final List<RedissonClient> clients;

    private RedissonRedLockPeer(List<RedissonClient> clients) {
        this.clients = clients;
    }

    static RedissonRedLockPeer connect(Target target, Duration lease) {
        List<RedissonClient> clients = new ArrayList<>();
        try {
            for (String node : target.nodes()) {
                Target one = new Target(Topology.STANDALONE, List.of(node), "");
                clients.add(Redisson.create(RedissonClientPeer.config(one, lease)));
            }
        } catch (RuntimeException e) {
            clients.forEach(RedissonClient::shutdown);
            throw e;
        }
        return new RedissonRedLockPeer(clients);
    }

    @Override
    @SuppressWarnings("deprecation") // RedissonRedLock is the peer under measurement
    public Lock lock(String name) {
        RLock[] locks = clients.stream().map(c -> c.getLock(name)).toArray(RLock[]::new);
        return new RedissonRedLock(locks);
    }

    @Override
    public void close() {
        clients.forEach(RedissonClient::shutdown);
    }
}
