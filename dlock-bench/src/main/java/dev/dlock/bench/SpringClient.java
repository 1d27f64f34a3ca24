package dev.dlock.bench;

import java.time.Duration;
import java.util.concurrent.locks.Lock;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Spring Integration's {@code RedisLockRegistry} over Spring Data Redis with Lettuce, with its defaults except
 * the lock type and the shared lease ({@code expireAfter}). Its locks are renewed only when a renewal scheduler is
 * set, which is not its default: the scheduler is given for the many-leases workload only.
 */
final class SpringClient implements Peer.Client {
    /** One registry key for every client, so that separate processes contend for the same Redis keys. */
    private static final String REGISTRY_KEY = "dlock-bench";

    private final LettuceConnectionFactory factory;
    private final RedisLockRegistry registry;
    private final ThreadPoolTaskScheduler scheduler;

    private SpringClient(LettuceConnectionFactory factory, RedisLockRegistry registry, ThreadPoolTaskScheduler s) {
        this.factory = factory;
        this.registry = registry;
        this.scheduler = s;
    }

    static SpringClient connect(String host, int port, Duration lease, boolean pubSub, boolean renewal) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        factory.start();
        RedisLockRegistry registry = new RedisLockRegistry(factory, REGISTRY_KEY, lease);
        registry.setRedisLockType(
                pubSub ? RedisLockRegistry.RedisLockType.PUB_SUB_LOCK : RedisLockRegistry.RedisLockType.SPIN_LOCK);
        ThreadPoolTaskScheduler scheduler = null;
        if (renewal) {
            scheduler = new ThreadPoolTaskScheduler();
            scheduler.setThreadNamePrefix("spring-lock-renewal-");
            scheduler.initialize();
            registry.setRenewalTaskScheduler(scheduler);
        }
        return new SpringClient(factory, registry, scheduler);
    }

    @Override
    public Lock lock(String name) {
        return registry.obtain(name);
    }

    @Override
    public void close() {
        registry.destroy();
        if (scheduler != null) {
            scheduler.shutdown();
        }
        factory.destroy();
    }
}
