package dev.dlock.contract;

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
 * stand in for the one it waits for. Every other pair of contract classes shares nothing: each starts its own servers
 * on free ports.
 */
final class ContractLocks implements ResourceLocksProvider {
    /** The lock every contract class reads and {@link FailuresVisibleContract} writes: the JVM's log records. */
    static final String LOG = "dev.dlock.contract.log";

    @Override
    public Set<Lock> provideForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> testClass) {
        Class<?> contract = testClass.getSuperclass();
        ResourceAccessMode log = FailuresVisibleContract.class.isAssignableFrom(testClass)
                ? ResourceAccessMode.READ_WRITE
                : ResourceAccessMode.READ;
        return Set.of(new Lock(contract.getName(), ResourceAccessMode.READ_WRITE), new Lock(LOG, log));
    }
}
