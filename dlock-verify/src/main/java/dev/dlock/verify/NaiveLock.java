package dev.dlock.verify;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Negative control 1: a tiny lock on dlock's key layout whose release deletes the key without checking the owner, so
 * a holder that overran its lease deletes its successor's lock. Polls every 2 ms while busy. Not thread-safe beyond
 * its connection's guarantees; one instance per worker.
 */
final class NaiveLock {

    private static final String ACQUIRE = script();

    private final RedisCommands<String, String> redis;
    private final String lockKey;
    private final String fenceKey;

    NaiveLock(RedisCommands<String, String> redis, String keyPrefix, String name) {
        this.redis = redis;
        this.lockKey = keyPrefix + ":{" + name + "}";
        this.fenceKey = lockKey + ":fence";
    }

    /** Returns the fencing token, or 0 if the lock stayed busy for {@code wait}. */
    long tryAcquire(String owner, Duration wait, Duration leaseTime) {
        long until = System.nanoTime() + wait.toNanos();
        while (true) {
            Long token = redis.eval(
                    ACQUIRE,
                    ScriptOutputType.INTEGER,
                    new String[] {lockKey, fenceKey},
                    owner,
                    Long.toString(leaseTime.toMillis()));
            if (token != 0L) {
                return token;
            }
            if (System.nanoTime() - until >= 0) {
                return 0;
            }
            LockSupport.parkNanos(2_000_000L);
        }
    }

    /**
     * The naive lock's hold: a fixed deadline counted from before the acquire was sent.
     *
     * @param lock the lock it was taken on
     * @param token its token
     * @param deadline its fixed deadline ({@code System.nanoTime()})
     */
    record Held(NaiveLock lock, long token, long deadline) implements Acquirer.Held {
        @Override
        public long observe() {
            return deadline;
        }

        @Override
        public boolean valid() {
            return true;
        }

        @Override
        public void release() {
            lock.release();
        }

        @Override
        public dev.dlock.Lease lease() {
            return null;
        }
    }

    /** The broken release: deletes whatever lock is there, whoever holds it. */
    void release() {
        redis.del(lockKey);
    }

    private static String script() {
        try (InputStream in = NaiveLock.class.getResourceAsStream("naive_acquire.lua")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
