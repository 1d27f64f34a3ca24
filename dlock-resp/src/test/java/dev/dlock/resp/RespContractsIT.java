package dev.dlock.resp;

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
 * The contract suite on dlock-resp: every contract class against one standalone server, and the lock family's
 * classes also against a Sentinel-managed master with a replica. dlock-resp serves no cluster.
 */
final class RespContractsIT extends ContractSuite {
    @Override
    protected TransportFactory transport() {
        return new RespTransportFactory();
    }

    @Override
    protected Map<Topology, Set<Class<? extends TransportContract>>> beyondStandalone() {
        return Map.of(
                Topology.SENTINEL,
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
