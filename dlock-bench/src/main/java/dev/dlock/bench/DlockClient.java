package dev.dlock.bench;

import dev.dlock.LockClient;
import dev.dlock.spi.TransportFactory;
import java.time.Duration;
import java.util.concurrent.locks.Lock;

/** dlock with its defaults, but the lease time all peers share, on the given transport. */
final class DlockClient implements Peer.Client {
    private final LockClient client;

    private DlockClient(LockClient client) {
        this.client = client;
    }

    static DlockClient connect(String host, int port, Duration lease, TransportFactory transport) {
        return new DlockClient(LockClient.builder()
                .redisUri("redis://" + host + ":" + port)
                .leaseTime(lease)
                .transport(transport)
                .build());
    }

    @Override
    public Lock lock(String name) {
        return client.lock(name);
    }

    @Override
    public void close() {
        client.close();
    }
}
