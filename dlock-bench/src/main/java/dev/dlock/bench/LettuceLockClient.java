package dev.dlock.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * The two hand-written locks on one Lettuce connection: the naive lock of the usual articles ({@code SET key token NX
 * PX} polled every 1 ms, released by a compare-and-delete script) and the floor (the same two round trips with no
 * waiting at all, which only works uncontended).
 */
final class LettuceLockClient implements Peer.Client {
    private static final String COMPARE_AND_DELETE =
            "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

    private final RedisClient redis;
    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> commands;
    private final String releaseSha;
    private final SetArgs setArgs;
    private final boolean polling;
    private final String clientId = UUID.randomUUID().toString();

    private LettuceLockClient(RedisClient redis, Duration lease, boolean polling) {
        this.redis = redis;
        this.connection = redis.connect();
        this.commands = connection.sync();
        this.releaseSha = commands.scriptLoad(COMPARE_AND_DELETE);
        this.setArgs = SetArgs.Builder.nx().px(lease.toMillis());
        this.polling = polling;
    }

    static LettuceLockClient connect(String host, int port, Duration lease, boolean polling) {
        return new LettuceLockClient(RedisClient.create(RedisURI.create(host, port)), lease, polling);
    }

    @Override
    public Lock lock(String name) {
        return new TokenLock(name, clientId + ":" + Thread.currentThread().getId());
    }

    @Override
    public void close() {
        connection.close();
        redis.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    /** Not reentrant; owned by the token of the thread that created it. */
    private final class TokenLock implements Lock {
        private final String key;
        private final String[] keys;
        private final String token;

        TokenLock(String key, String token) {
            this.key = key;
            this.keys = new String[] {key};
            this.token = token;
        }

        @Override
        public void lock() {
            while (!tryLock()) {
                if (!polling) {
                    throw new IllegalStateException("the floor does not wait, and " + key + " is busy");
                }
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while polling " + key, e);
                }
            }
        }

        @Override
        public boolean tryLock() {
            return "OK".equals(commands.set(key, token, setArgs));
        }

        @Override
        public void unlock() {
            Long deleted = commands.evalsha(releaseSha, ScriptOutputType.INTEGER, keys, token);
            if (deleted == null || deleted != 1L) {
                throw new IllegalMonitorStateException(key + " is not held by " + token);
            }
        }

        @Override
        public void lockInterruptibly() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean tryLock(long time, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Condition newCondition() {
            throw new UnsupportedOperationException();
        }
    }
}
