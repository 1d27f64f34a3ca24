package dev.dlock.lettuce;

import dev.dlock.contract.AdminContract;
import dev.dlock.contract.ContractSuite;
import dev.dlock.contract.HandoffContract;
import dev.dlock.contract.KindContract;
import dev.dlock.contract.LockContract;
import dev.dlock.contract.MultiLockContract;
import dev.dlock.contract.ReadWriteHoldsContract;
import dev.dlock.contract.ReadWriteLockContract;
import dev.dlock.contract.RelayContract;
import dev.dlock.contract.SemaphoreContract;
import dev.dlock.contract.TransportContract;
import dev.dlock.contract.WatchdogContract;
import dev.dlock.spi.RedisUri.Topology;
import dev.dlock.spi.TransportFactory;
import java.util.Map;
import java.util.Set;

/**
 * The contract suite on the Lettuce transport: every contract class against one standalone server, the lock family's
 * classes also against a Redis Cluster of three masters (a multi-lock's names on different slots), and the mutex's
 * (lock, hand-off, watchdog, admin, relay) against a Sentinel-managed master with a replica.
 */
final class LettuceContractsIT extends ContractSuite {
    @Override
    protected TransportFactory transport() {
        return new LettuceTransportFactory();
    }

    @Override
    protected Map<Topology, Set<Class<? extends TransportContract>>> beyondStandalone() {
        return Map.of(
                Topology.SENTINEL,
                Set.of(
                        AdminContract.class,
                        HandoffContract.class,
                        LockContract.class,
                        RelayContract.class,
                        WatchdogContract.class),
                Topology.CLUSTER,
                Set.of(
                        AdminContract.class,
                        HandoffContract.class,
                        KindContract.class,
                        LockContract.class,
                        MultiLockContract.class,
                        ReadWriteHoldsContract.class,
                        ReadWriteLockContract.class,
                        RelayContract.class,
                        SemaphoreContract.class,
                        WatchdogContract.class));
    }
}
