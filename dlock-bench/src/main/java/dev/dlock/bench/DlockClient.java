package dev.dlock.bench;

import dev.dlock.DistributedReadWriteLock;
import dev.dlock.LockClient;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * dlock with its defaults, but the lease time all peers share, on the given transport: one Redis (standalone,
 * Sentinel, Cluster) or {@code redlock(...)} over independent masters.
 */
final class DlockClient implements Peer.Client {
    private final LockClient client;

    private DlockClient(LockClient client) {
        this.client = client;
    }

    /**
     * Connects.
     *
     * @param target where
     * @param lease the lease time
     * @param transport the transport
     * @param replicaAcks {@code LockClient.Builder.replicaAcks}: how many replicas acknowledge each grant
     */
    static DlockClient connect(Target target, Duration lease, TransportFactory transport, int replicaAcks) {
        LockClient.Builder builder =
                LockClient.builder().leaseTime(lease).transport(transport).replicaAcks(replicaAcks);
        switch (target.topology()) {
            case REDLOCK_3, REDLOCK_5 -> builder.redlock(target.redisUris().toArray(String[]::new));
            default -> builder.redisUri(target.dlockUri());
        }
        return new DlockClient(builder.build());
    }

    @Override
    public Lock lock(String name) {
        return client.lock(name);
    }

    @Override
    public ReadWriteLock readWriteLock(String name) {
        DistributedReadWriteLock lock = client.readWriteLock(name);
        return new ReadWriteLock() {
            @Override
            public Lock readLock() {
                return lock.readLock();
            }

            @Override
            public Lock writeLock() {
                return lock.writeLock();
            }
        };
    }

    @Override
    public Lock multiLock(List<String> names) {
        return client.multiLock(names.toArray(String[]::new));
    }

    @Override
    public void close() {
        client.close();
    }
}
