package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLocksProvider.Lock;

/** What ContractSuite's contract classes hold while they run side by side. */
final class ContractLocksTest {
    private static Set<Lock> locksOf(Class<?> nested) {
        return new ContractLocks().provideForNestedClass(List.of(nested.getEnclosingClass()), nested);
    }

    @Test
    void oneContractClass_onTwoTopologies_takesTheSameLock_asItsRunsShareItsStaticRedis() {
        Lock kind = new Lock(KindContract.class.getName(), ResourceAccessMode.READ_WRITE);
        assertThat(locksOf(ContractSuite.Standalone.Kind.class)).contains(kind);
        assertThat(locksOf(ContractSuite.Sentinel.Kind.class)).contains(kind);
        assertThat(locksOf(ContractSuite.Cluster.Kind.class)).contains(kind);
        assertThat(locksOf(ContractSuite.Standalone.Lock.class)).doesNotContain(kind);
    }

    @Test
    void theClassThatReadsTheLog_excludesEveryOther() {
        assertThat(locksOf(ContractSuite.Standalone.FailuresVisible.class))
                .contains(new Lock(ContractLocks.LOG, ResourceAccessMode.READ_WRITE));
        assertThat(locksOf(ContractSuite.Sentinel.Relay.class))
                .contains(new Lock(ContractLocks.LOG, ResourceAccessMode.READ));
    }

    @Test
    void theStandaloneRunsThatStartHolderJvms_runOneAtATime() {
        Lock processes = new Lock(ContractLocks.PROCESSES, ResourceAccessMode.READ_WRITE);
        assertThat(locksOf(ContractSuite.Standalone.Semaphore.class)).contains(processes);
        assertThat(locksOf(ContractSuite.Standalone.ReadWriteLock.class)).contains(processes);
        assertThat(locksOf(ContractSuite.Standalone.MultiLock.class)).contains(processes);
        assertThat(locksOf(ContractSuite.Standalone.ProcessFault.class)).contains(processes);
        assertThat(locksOf(ContractSuite.Cluster.Semaphore.class)).doesNotContain(processes);
        assertThat(locksOf(ContractSuite.Standalone.Kind.class)).doesNotContain(processes);
    }
}
