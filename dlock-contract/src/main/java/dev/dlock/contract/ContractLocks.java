package dev.dlock.contract;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLocksProvider;

/**
 * What a {@link ContractSuite}'s contract classes must not share while they run side by side (JUnit's parallel
 * execution, enabled by a transport module's surefire configuration): a contract class on one topology excludes the
 * same class on another, as the runs share the class's {@code static} Redis extension ({@link ContractRedis} keeps the
 * topology of the one run it serves); and {@link FailuresVisibleContract}, which reads what every client in the JVM
 * logs under {@code dev.dlock}, runs with no other contract class beside it, so that no other class's warning can
 * stand in for the one it waits for. The standalone runs of the classes that start holder JVMs ({@link
 * HolderProcesses}: six or eight at once in a contest) run one at a time, so that one class's JVM starts do not starve
 * another's past its timeouts on a machine of two cores. Every other pair of contract classes shares nothing: each
 * starts its own servers on free ports.
 */
final class ContractLocks implements ResourceLocksProvider {
    /** The lock every contract class reads and {@link FailuresVisibleContract} writes: the JVM's log records. */
    static final String LOG = "dev.dlock.contract.log";

    /** The lock of the classes whose standalone runs start holder JVMs. */
    static final String PROCESSES = "dev.dlock.contract.processes";

    private static final Set<Class<?>> STARTING_PROCESSES = Set.of(
            SemaphoreContract.class, ReadWriteLockContract.class, MultiLockContract.class, ProcessFaultContract.class);

    @Override
    public Set<Lock> provideForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> testClass) {
        Class<?> contract = testClass.getSuperclass();
        ResourceAccessMode log = FailuresVisibleContract.class.isAssignableFrom(testClass)
                ? ResourceAccessMode.READ_WRITE
                : ResourceAccessMode.READ;
        Set<Lock> locks = new HashSet<>();
        locks.add(new Lock(contract.getName(), ResourceAccessMode.READ_WRITE));
        locks.add(new Lock(LOG, log));
        if (STARTING_PROCESSES.contains(contract)
                && testClass.getEnclosingClass().getSimpleName().equals("Standalone")) {
            locks.add(new Lock(PROCESSES, ResourceAccessMode.READ_WRITE));
        }
        return locks;
    }
}
