package dev.dlock.contract;

import dev.dlock.spi.RedisUri.Topology;
import dev.dlock.spi.TransportFactory;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * The whole contract suite on one transport, as data: a transport's tests extend this class once (as {@code
 * RespContractsIT}), name their factory in {@link #transport()} and, in {@link #beyondStandalone()}, which contract
 * classes they also run on Sentinel or a cluster. Every contract class runs on a standalone server.
 *
 * <p>Each topology is a {@link Nested} class below, holding a {@link Nested} class of one line per contract class that
 * can run there (beyond one server: those whose Redis is a {@link ContractRedis}). Each of those is a {@link
 * ParameterizedClass} with one run, on a {@link ContractTarget} of the suite's transport and its topology, when the
 * transport names it, and none otherwise: the reports read {@code ContractSuite$Sentinel$Lock[1]}, and a topology a
 * transport does not name a class for is not run at all. A new contract class is its file and one line here per
 * topology it can run on.
 *
 * <p>The contract classes run side by side when JUnit's parallel execution is enabled (the transport modules' surefire
 * configuration does, with {@code dlock.contract.lanes} threads): each starts its own servers, the tests of one class
 * run one after another, and {@link ContractLocks} keeps apart the runs of one class on two topologies (they share its
 * {@code static} Redis extension) and the class that reads the JVM's log records from every other. Without parallel
 * execution they run one after another, as before.
 *
 * <p>A subclass needs a no-argument constructor: the suite's data is read from a fresh instance. A subclass is not
 * thread-safe and needs none: JUnit makes and uses each instance on one thread.
 */
public abstract class ContractSuite {
    /** Extended by each transport's one suite class. */
    protected ContractSuite() {}

    /**
     * A new factory of the transport under test, such as {@code new RespTransportFactory()}; called for every client,
     * as a contract class's own {@link TransportContract#transport()} is.
     *
     * @return a factory of the transport under test
     */
    protected abstract TransportFactory transport();

    /**
     * The contract classes this transport also runs on {@link Topology#SENTINEL} or {@link Topology#CLUSTER}; every
     * contract class runs on {@link Topology#STANDALONE}. A class this suite cannot run on the topology named (not one
     * of its nested classes there) fails the suite's runs, naming it.
     *
     * @return the contract classes (such as {@code LockContract.class}) per further topology
     */
    protected abstract Map<Topology, Set<Class<? extends TransportContract>>> beyondStandalone();

    /**
     * Runs the annotated contract class once on its enclosing topology when the suite's transport names it there (on
     * {@code Standalone} always, unless {@code -Ddlock.contracts} or {@code -Ddlock.topologies} narrows the run), and
     * not at all otherwise.
     */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.TYPE)
    @Inherited
    @ParameterizedClass(name = "{0}", allowZeroInvocations = true)
    @ArgumentsSource(ContractTargets.class)
    @Execution(ExecutionMode.CONCURRENT)
    @ResourceLock(providers = ContractLocks.class)
    @interface RunIfNamed {}

    /** Every contract class, on one {@code redis-server}. */
    @Nested
    @Execution(ExecutionMode.CONCURRENT)
    class Standalone {
        @Nested
        @RunIfNamed
        class Admin extends AdminContract {}

        @Nested
        @RunIfNamed
        class FailuresVisible extends FailuresVisibleContract {}

        @Nested
        @RunIfNamed
        class FencingLimit extends FencingLimitContract {}

        @Nested
        @RunIfNamed
        class Handoff extends HandoffContract {}

        @Nested
        @RunIfNamed
        class Kind extends KindContract {}

        @Nested
        @RunIfNamed
        class LateGrant extends LateGrantContract {}

        @Nested
        @RunIfNamed
        class Lock extends LockContract {}

        @Nested
        @RunIfNamed
        class MultiLock extends MultiLockContract {}

        @Nested
        @RunIfNamed
        class MultiLostPart extends MultiLostPartContract {}

        @Nested
        @RunIfNamed
        class ProcessFault extends ProcessFaultContract {}

        @Nested
        @RunIfNamed
        class QueueCleanup extends QueueCleanupContract {}

        @Nested
        @RunIfNamed
        class ReadWriteHolds extends ReadWriteHoldsContract {}

        @Nested
        @RunIfNamed
        class ReadWriteLock extends ReadWriteLockContract {}

        @Nested
        @RunIfNamed
        class Redlock extends RedlockContract {}

        @Nested
        @RunIfNamed
        class RedlockMultiLock extends RedlockMultiLockContract {}

        @Nested
        @RunIfNamed
        class Relay extends RelayContract {}

        @Nested
        @RunIfNamed
        class ReleaseAsync extends ReleaseAsyncContract {}

        @Nested
        @RunIfNamed
        class ScriptOrder extends ScriptOrderContract {}

        @Nested
        @RunIfNamed
        class Semaphore extends SemaphoreContract {}

        @Nested
        @RunIfNamed
        class ServerConditions extends ServerConditionsContract {}

        @Nested
        @RunIfNamed
        class ShortLease extends ShortLeaseContract {}

        @Nested
        @RunIfNamed
        class StaleGrant extends StaleGrantContract {}

        @Nested
        @RunIfNamed
        class WakeOne extends WakeOneContract {}

        @Nested
        @RunIfNamed
        class Watchdog extends WatchdogContract {}
    }

    /** The contract classes on a {@link ContractRedis}, on a Sentinel-managed master with a replica. */
    @Nested
    @Execution(ExecutionMode.CONCURRENT)
    class Sentinel {
        @Nested
        @RunIfNamed
        class Admin extends AdminContract {}

        @Nested
        @RunIfNamed
        class Handoff extends HandoffContract {}

        @Nested
        @RunIfNamed
        class Kind extends KindContract {}

        @Nested
        @RunIfNamed
        class Lock extends LockContract {}

        @Nested
        @RunIfNamed
        class MultiLock extends MultiLockContract {}

        @Nested
        @RunIfNamed
        class MultiLostPart extends MultiLostPartContract {}

        @Nested
        @RunIfNamed
        class ReadWriteHolds extends ReadWriteHoldsContract {}

        @Nested
        @RunIfNamed
        class ReadWriteLock extends ReadWriteLockContract {}

        @Nested
        @RunIfNamed
        class Relay extends RelayContract {}

        @Nested
        @RunIfNamed
        class Semaphore extends SemaphoreContract {}

        @Nested
        @RunIfNamed
        class Watchdog extends WatchdogContract {}
    }

    /** The contract classes on a {@link ContractRedis}, on a Redis Cluster of three masters. */
    @Nested
    @Execution(ExecutionMode.CONCURRENT)
    class Cluster {
        @Nested
        @RunIfNamed
        class Admin extends AdminContract {}

        @Nested
        @RunIfNamed
        class Handoff extends HandoffContract {}

        @Nested
        @RunIfNamed
        class Kind extends KindContract {}

        @Nested
        @RunIfNamed
        class Lock extends LockContract {}

        @Nested
        @RunIfNamed
        class MultiLock extends MultiLockContract {}

        @Nested
        @RunIfNamed
        class MultiLostPart extends MultiLostPartContract {}

        @Nested
        @RunIfNamed
        class ReadWriteHolds extends ReadWriteHoldsContract {}

        @Nested
        @RunIfNamed
        class ReadWriteLock extends ReadWriteLockContract {}

        @Nested
        @RunIfNamed
        class Relay extends RelayContract {}

        @Nested
        @RunIfNamed
        class Semaphore extends SemaphoreContract {}

        @Nested
        @RunIfNamed
        class Watchdog extends WatchdogContract {}
    }
}
