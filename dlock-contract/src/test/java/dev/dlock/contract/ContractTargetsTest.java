package dev.dlock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dlock.spi.RedisUri.Topology;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What a transport's matrix may name: a class ContractSuite can run on the topology, and nothing on STANDALONE. */
final class ContractTargetsTest {
    @Test
    void standalone_holdsEveryContractClass_theOtherTopologiesOnlyThoseOnAContractRedis() {
        assertThat(ContractTargets.runnableOn(Topology.STANDALONE))
                .hasSize(24)
                .contains(FencingLimitContract.class, LockContract.class, RedlockContract.class);
        for (Topology topology : Set.of(Topology.SENTINEL, Topology.CLUSTER)) {
            assertThat(ContractTargets.runnableOn(topology))
                    .as("%s", topology)
                    .hasSize(11)
                    .allSatisfy(contract -> assertThat(contract.getDeclaredFields())
                            .as("%s has a static ContractRedis", contract.getSimpleName())
                            .anyMatch(field -> field.getType() == ContractRedis.class));
        }
    }

    @Test
    void aContractClassRunnableThere_isAccepted() {
        assertThatCode(() -> ContractTargets.refuseWhatCannotRun(
                        ContractTargetsTest.class,
                        Map.of(Topology.SENTINEL, Set.of(LockContract.class, KindContract.class))))
                .doesNotThrowAnyException();
    }

    @Test
    void aContractClassWhoseRedisIsNoContractRedis_isRefusedBeyondStandalone_namingIt() {
        assertThatThrownBy(() -> ContractTargets.refuseWhatCannotRun(
                        ContractTargetsTest.class, Map.of(Topology.CLUSTER, Set.of(FencingLimitContract.class))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("FencingLimitContract on CLUSTER");
    }

    @Test
    void standaloneInTheMatrix_isRefused() {
        assertThatThrownBy(() -> ContractTargets.refuseWhatCannotRun(
                        ContractTargetsTest.class, Map.of(Topology.STANDALONE, Set.of(LockContract.class))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("names STANDALONE");
    }

    @Test
    void aNarrowingNameThatMatchesNothing_isRefused_namingIt() {
        System.setProperty(ContractTargets.CONTRACTS, "Relay,Rely");
        try {
            assertThatThrownBy(ContractTargets::refuseUnknownNames)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("-Ddlock.contracts names Rely");
            System.setProperty(ContractTargets.CONTRACTS, "relay, Lock");
            assertThatCode(ContractTargets::refuseUnknownNames).doesNotThrowAnyException();
        } finally {
            System.clearProperty(ContractTargets.CONTRACTS);
        }
    }
}
