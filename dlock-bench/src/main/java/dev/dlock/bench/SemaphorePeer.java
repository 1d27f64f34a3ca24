package dev.dlock.bench;

import dev.dlock.DistributedSemaphore;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.resp.RespTransportFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * W7's peers: one permit of a semaphore of {@link #PERMITS} seen through the {@link Lock} the harness drives, {@code
 * lock()} taking a permit and {@code unlock()} giving it back. dlock's {@code semaphore(name, 3)} takes a
 * watchdog-renewed lease of the shared lease time; Redisson's {@code RPermitExpirableSemaphore} (the Redisson
 * semaphore whose permits come back after a crash) takes a permit with that lease time, which nothing renews. Both with
 * their defaults otherwise, on the standalone server.
 */
final class SemaphorePeer {
    /** The permits of W7's semaphore. */
    static final int PERMITS = 3;

    private SemaphorePeer() {}

    static Peer.Client dlock(Target target, Duration lease) {
        LockClient client = LockClient.builder()
                .leaseTime(lease)
                .transport(new RespTransportFactory())
                .redisUri(target.dlockUri())
                .build();
        return new Peer.Client() {
            @Override
            public Lock lock(String name) {
                DistributedSemaphore semaphore = client.semaphore(name, PERMITS);
                return new PermitLock() {
                    private Lease lease;

                    @Override
                    public void lock() {
                        lease = semaphore.acquire();
                    }

                    @Override
                    public void unlock() {
                        lease.release();
                    }
                };
            }

            @Override
            public void close() {
                client.close();
            }
        };
    }

    static Peer.Client redisson(Target target, Duration lease) {
        RedissonClient redisson = Redisson.create(RedissonClientPeer.config(target, lease));
        return new Peer.Client() {
            @Override
            public Lock lock(String name) {
                RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(name);
                semaphore.trySetPermits(PERMITS); // the first thread sets them; the others find them set
                return new PermitLock() {
                    private String permit;

                    @Override
                    public void lock() {
                        try {
                            permit = semaphore.acquire(lease.toMillis(), TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException(e);
                        }
                    }

                    @Override
                    public void unlock() {
                        semaphore.release(permit);
                    }
                };
            }

            @Override
            public void close() {
                redisson.shutdown();
            }
        };
    }

    /** A permit as a {@link Lock}: one thread's, used by that thread only; only lock and unlock are driven. */
    private abstract static class PermitLock implements Lock {
        @Override
        public void lockInterruptibly() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean tryLock() {
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
